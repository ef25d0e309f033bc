"""Functions that reduce or count along axes: sums, extrema, means and scans
(``reductions``), order statistics (``statistics``), averages, covariance and correlation
(``moments``), the NaN-ignoring reductions (``nanfunctions``) and histograms
(``histograms``, ``histogramdd``).
"""
