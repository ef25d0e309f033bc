"""Input, output and text: saving and loading files, buffers and strings (``npyio``), and
printing arrays and scalars with NumPy's print options (``printing``).
"""
