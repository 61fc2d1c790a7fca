"""Run one method of an Open WebUI Tools file.

Usage: python run_openwebui.py   (the request as one JSON object on stdin)
Request: {"file", "method", "marker", "args", "valves", "userValves", "secretEnv": {"valves": {KEY: ENV},
"userValves": {...}}, "user", "metadata", "messages", "files", "model", "id"}.
A fresh Tools() per call; `self.valves` is set before the method runs, `__user__["valves"]` is a
UserValves instance. Events the tool emits are written to stdout as `MARKER event JSON` lines (the
app shows them while the call runs) and listed in the envelope. The envelope goes to fd 3 (or to
stdout after a line holding MARKER where fd 3 is not inherited), as in run_tool.py:
{"success": true, "result": ..., "events": [...], "html"?: "...", "warnings"?: [...]} or
{"success": false, "error": "...", "traceback": "...", "events": [...]}.
"""
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SHIM = os.path.join(HERE, 'openwebui_shim')
MAX_EVENTS = 1000


class Refused(Exception):
    pass


def open_channel():
    try:
        return os.fdopen(3, 'w', encoding='utf-8'), False
    except OSError:
        return sys.stdout, True


def jsonable(value):
    try:
        json.dumps(value, allow_nan=False)
        return value
    except (TypeError, ValueError):
        dump = getattr(value, 'model_dump', None) or getattr(value, 'dict', None)
        if callable(dump):
            try:
                return jsonable(dump())
            except Exception:
                pass
        return str(value)


class Events:
    def __init__(self, marker, ask):
        self.marker = marker
        self.ask = ask
        self.events = []
        self.dropped = 0

    def record(self, event):
        if not isinstance(event, dict):
            raise TypeError('__event_emitter__ takes a dict like {"type": "status", "data": {...}}, got %s' % type(event).__name__)
        if len(self.events) >= MAX_EVENTS:
            self.dropped += 1  # neither kept nor shown: a flood cannot fill the output cap
            return
        event = {'type': str(event.get('type', '')), 'data': jsonable(event.get('data') if isinstance(event.get('data'), dict) else {})}
        self.events.append(event)
        sys.stdout.flush()
        os.write(1, ('\n%s event %s\n' % (self.marker, json.dumps(event, ensure_ascii=False))).encode('utf-8'))

    async def emit(self, event):
        self.record(event)

    async def call(self, event):
        kind = event.get('type') if isinstance(event, dict) else None
        if kind == 'execute':
            raise Refused('__event_call__ type "execute" runs JavaScript in an Open WebUI browser tab; Tooldesk has no such page, so it is refused')
        if kind in ('confirmation', 'input'):
            if not self.ask:
                raise Refused('__event_call__ type "%s" needs someone to answer, and no chat or terminal is attached to this call' % kind)
            return ask_user(self.ask, event)
        raise Refused('__event_call__ type %r is not known' % (kind,))


def ask_user(ask, event):
    """Asks through the app's per-call endpoint and waits for the user's answer."""
    import urllib.request
    data = event.get('data') if isinstance(event.get('data'), dict) else {}
    body = json.dumps({'type': event.get('type'), 'data': jsonable(data)}).encode('utf-8')
    request = urllib.request.Request(ask['url'], data=body, method='POST', headers={
        'Authorization': 'Bearer ' + ask['token'], 'Content-Type': 'application/json'})
    # No proxy: the endpoint is on this machine.
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(request) as response:
        return json.loads(response.read().decode('utf-8')).get('answer')


def ensure_pydantic(warnings):
    sys.path.append(SHIM)  # last: an installed pydantic or fastapi always wins
    found = importlib.util.find_spec('pydantic')  # found, not imported: the tool imports it if it uses it
    if found is not None and (found.origin or '').startswith(SHIM + os.sep):
        warnings.append('pydantic is not installed for this Python; Tooldesk used a minimal stand-in (no validation).')


def build_valves(cls, values, secret_env, label):
    if cls is None:
        return None
    merged = dict(values or {})
    for key, env in (secret_env or {}).items():
        if env in os.environ:
            merged[key] = os.environ[env]
    try:
        return cls(**merged)
    except Exception as error:
        raise ValueError('%s could not be built from the saved values (%s); fix them with `tooldesk tools config`' % (label, error))


def field_default(info):
    """The value a pydantic `Field(...)` default stands for (None when it has none)."""
    try:
        value = info.get_default(call_default_factory=True)
    except TypeError:
        value = info.get_default()
    return None if type(value).__name__ == 'PydanticUndefinedType' else value


def call_method(method, request, events, user_valves):
    import inspect
    try:
        parameters = inspect.signature(method).parameters
    except (TypeError, ValueError):
        parameters = {}
    user = dict(request.get('user') or {})
    if user_valves is not None:
        user['valves'] = user_valves
    known = {
        '__user__': user,
        '__event_emitter__': events.emit,
        '__event_call__': events.call,
        '__metadata__': request.get('metadata') or {},
        '__messages__': request.get('messages') or [],
        '__files__': request.get('files') or [],
        '__model__': request.get('model'),
        '__id__': request.get('id'),
    }
    kwargs = dict(request.get('args') or {})
    for name in list(kwargs):
        if name.startswith('__') and name.endswith('__'):
            del kwargs[name]  # only Tooldesk fills injected arguments
    for name, parameter in parameters.items():
        if len(name) > 4 and name.startswith('__') and name.endswith('__'):
            kwargs[name] = known.get(name)
        elif name not in kwargs and type(parameter.default).__name__ == 'FieldInfo':
            # `limit: int = Field(5, description=...)`: Python would pass the FieldInfo itself.
            kwargs[name] = field_default(parameter.default)
    result = method(**kwargs)
    if hasattr(result, '__await__'):
        import asyncio

        async def wait(awaitable):
            return await awaitable
        result = asyncio.run(wait(result))
    return result


def html_of(result):
    """Open WebUI's rich UI: an HTMLResponse (or a (response, context) tuple) is HTML to show."""
    if isinstance(result, tuple) and result and type(result[0]).__name__ == 'HTMLResponse':
        result = result[0]
    if type(result).__name__ == 'HTMLResponse':
        body = getattr(result, 'body', b'')
        return body.decode('utf-8', 'replace') if isinstance(body, bytes) else str(body)
    return None


def encode(envelope):
    try:
        return json.dumps(envelope, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as error:
        envelope.setdefault('warnings', []).append('The result is not JSON-serialisable (%s); it was converted with str().' % error)
        envelope['result'] = str(envelope.get('result'))
        return json.dumps(envelope, ensure_ascii=False)


def main():
    channel, on_stdout = open_channel()
    raw = sys.stdin.buffer.read().decode('utf-8')
    request = json.loads(raw)
    marker = request.get('marker') or 'TOOLDESK-RESULT'
    script, method_name = request['file'], request['method']
    folder = os.path.dirname(os.path.abspath(script))
    sys.path = [folder] + [p for p in sys.path if os.path.abspath(p or '.') != HERE]
    warnings = []
    events = Events(marker, request.get('ask'))
    try:
        ensure_pydantic(warnings)
        name = os.path.splitext(os.path.basename(script))[0]
        spec = importlib.util.spec_from_file_location(name, script)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        tools_class = getattr(module, 'Tools', None)
        if not isinstance(tools_class, type):
            raise AttributeError('%s defines no class Tools' % os.path.basename(script))
        tools = tools_class()
        secret_env = request.get('secretEnv') or {}
        valves = build_valves(getattr(tools_class, 'Valves', None), request.get('valves'), secret_env.get('valves'), 'Valves')
        if valves is not None:
            tools.valves = valves
        user_valves = build_valves(getattr(tools_class, 'UserValves', None), request.get('userValves'), secret_env.get('userValves'), 'UserValves')
        method = getattr(tools, method_name, None)
        if not callable(method) or method_name.startswith('_'):
            raise AttributeError('class Tools has no method %s()' % method_name)
        result = call_method(method, request, events, user_valves)
        envelope = {'success': True}
        html = html_of(result)
        if html is not None:
            envelope['html'] = html
            envelope['result'] = None
        else:
            envelope['result'] = jsonable(result) if not isinstance(result, (str, int, float, bool, type(None), list, dict)) else result
    except BaseException as error:  # SystemExit and KeyboardInterrupt included: report, never hang
        import traceback
        envelope = {'success': False, 'error': '%s: %s' % (type(error).__name__, error), 'traceback': traceback.format_exc()}
    envelope['events'] = events.events
    if events.dropped:
        warnings.append('%d events after the first %d were dropped.' % (events.dropped, MAX_EVENTS))
    if warnings:
        envelope['warnings'] = warnings
    sys.stdout.flush()
    sys.stderr.flush()
    text = encode(envelope)
    if on_stdout:
        channel.write('\n' + marker + '\n')
    channel.write(text)
    channel.write('\n')
    channel.flush()


if __name__ == '__main__':
    main()
