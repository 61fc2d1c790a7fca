"""`HTMLResponse(content=..., headers=...)` with the `.body` bytes run_openwebui.py reads."""


class HTMLResponse:
    media_type = 'text/html'

    def __init__(self, content='', status_code=200, headers=None, media_type=None, **_ignored):
        self.body = content.encode('utf-8') if isinstance(content, str) else bytes(content or b'')
        self.status_code = status_code
        self.headers = dict(headers or {})
