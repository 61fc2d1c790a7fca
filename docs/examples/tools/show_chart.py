def show_chart(title: str = "Sales") -> dict:
    """Shows a chart of the month's sales."""
    html = f"<!doctype html><html><body><h1>{title}</h1>…</body></html>"
    return {
        "type": "resource",
        "text": f"A chart titled {title} is shown to the user.",  # what the model reads
        "resource": {
            "uri": "ui://show_chart/chart.html",
            "mimeType": "text/html;profile=mcp-app",
            "text": html,
            "_meta": {"ui": {"csp": {"connectDomains": ["https://data.example.com"]}}},
        },
    }
