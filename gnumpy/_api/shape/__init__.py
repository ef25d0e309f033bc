"""Functions that rearrange elements without computing new values: views and stacking
(``manipulation``), flips, rolls, tiling and layout requests (``shaping``), joining and
splitting (``joining``), insert/delete/copyto (``editing``), ``pad`` (``padding``),
diagonals and index grids (``diagonals``), and the view-building helpers they share
(``_views``).
"""
