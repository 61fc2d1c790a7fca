"""A stand-in for fastapi, used by run_openwebui.py only when the interpreter has none: Open WebUI
Tools import `fastapi.responses.HTMLResponse` for rich UI results, and nothing else of it runs here."""
