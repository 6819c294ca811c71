"""The results portal's render step: DuckDB results -> Markdown pages + Plotly figure JSON.

`fixlab render` writes into MkDocs' docs folder (site/); `mkdocs build` turns that into
the static site. Rendering never measures and never changes the database.
"""
