// What runs in an MCP App's document before the app's own code (issue 32 §9). Chromium ignores
// the CSP `webrtc` directive, so a frame whose CSP allows no connection could still send data out
// through WebRTC (STUN/TURN to any address). The app's document therefore gets, as its first
// script: every WebRTC interface removed from its window. A frame it creates is a fresh realm
// with its own RTCPeerConnection: the sandbox gives each one a new opaque origin, so the app
// cannot reach into it, but a `srcdoc` frame runs its own inline script there. So every srcdoc
// gets this prelude first (rewritten before the frame loads: on the setter, setAttribute and a
// MutationObserver), and whatever frame the app can reach is scrubbed too.
// With its Permissions-Policy header (app-sandbox-server.ts) and, in Electron, the WebRTC IP
// handling policy of every web contents (no UDP that is not proxied), this is defence in depth:
// the e2e test proves nothing reaches a STUN/TURN listener on loopback.

/** The names removed (constructors an app could build a connection from). */
const WEBRTC_NAMES = [
  'RTCPeerConnection', 'webkitRTCPeerConnection', 'RTCDataChannel', 'RTCSessionDescription', 'RTCIceCandidate',
  'RTCRtpSender', 'RTCRtpReceiver', 'RTCRtpTransceiver', 'RTCDtlsTransport', 'RTCIceTransport', 'RTCSctpTransport',
  'RTCCertificate', 'RTCDTMFSender', 'RTCEncodedAudioFrame', 'RTCEncodedVideoFrame', 'RTCRtpScriptTransform',
];

// Plain ES5-ish code, run before anything of the app: it must not depend on what the app defines.
const PRELUDE = `(function tooldeskPrelude() {
  var MARK = '<script>/*tooldesk-prelude*/';
  var SELF = MARK + '(' + tooldeskPrelude.toString() + ')();</' + 'script>';
  var names = ${JSON.stringify(WEBRTC_NAMES)};
  var seen = new WeakSet();
  function scrub(w) {
    try {
      if (!w || seen.has(w)) return;
      seen.add(w);
      for (var i = 0; i < names.length; i++) {
        try { delete w[names[i]]; } catch (e) {}
        try { if (names[i] in w) Object.defineProperty(w, names[i], { value: undefined, writable: false, configurable: false }); } catch (e) {}
      }
      guardFrames(w);
      try { w.addEventListener('load', function () { scrubFrames(w); }, true); } catch (e) {}
    } catch (e) {}
  }
  function scrubFrames(w) {
    try { for (var i = 0; i < w.length; i++) { seen.delete(w[i]); scrub(w[i]); } } catch (e) {}
  }
  function wrapGetter(proto, prop, toWindow) {
    var d = proto && Object.getOwnPropertyDescriptor(proto, prop);
    if (!d || !d.get) return;
    Object.defineProperty(proto, prop, { configurable: false, enumerable: d.enumerable, get: function () {
      var v = d.get.call(this);
      if (v) scrub(toWindow(v));
      return v;
    } });
  }
  function wrapMethod(proto, name, w) {
    var f = proto && proto[name];
    if (typeof f !== 'function') return;
    Object.defineProperty(proto, name, { configurable: false, writable: false, value: function () {
      try { return f.apply(this, arguments); } finally { scrubFrames(w); }
    } });
  }
  function wrapSetter(proto, prop, w) {
    var d = proto && Object.getOwnPropertyDescriptor(proto, prop);
    if (!d || !d.set) return;
    Object.defineProperty(proto, prop, { configurable: false, enumerable: d.enumerable, get: d.get, set: function (v) {
      try { d.set.call(this, v); } finally { scrubFrames(w); }
    } });
  }
  function withPrelude(html) {
    html = String(html);
    return html.indexOf(MARK) === 0 ? html : SELF + html;
  }
  function guardSrcdoc(w) {
    var p = w.HTMLIFrameElement && w.HTMLIFrameElement.prototype;
    var d = p && Object.getOwnPropertyDescriptor(p, 'srcdoc');
    if (d && d.set) Object.defineProperty(p, 'srcdoc', { configurable: false, enumerable: d.enumerable, get: d.get, set: function (v) { d.set.call(this, withPrelude(v)); } });
    var e = w.Element && w.Element.prototype;
    ['setAttribute', 'setAttributeNS'].forEach(function (name) {
      var f = e && e[name];
      if (typeof f !== 'function') return;
      Object.defineProperty(e, name, { configurable: false, writable: false, value: function () {
        var args = Array.prototype.slice.call(arguments);
        var at = args.length - 2;
        if (this instanceof w.HTMLIFrameElement && String(args[at]).toLowerCase() === 'srcdoc') args[at + 1] = withPrelude(args[at + 1]);
        return f.apply(this, args);
      } });
    });
    var fix = function (el) {
      var v = el.getAttribute && el.getAttribute('srcdoc');
      if (v !== null && v !== undefined && String(v).indexOf(MARK) !== 0) el.setAttribute('srcdoc', v);
    };
    try {
      new w.MutationObserver(function (records) {
        records.forEach(function (r) {
          if (r.type === 'attributes') fix(r.target);
          else r.addedNodes.forEach(function (n) {
            if (n.nodeType !== 1) return;
            if (n.tagName === 'IFRAME') fix(n);
            if (n.querySelectorAll) n.querySelectorAll('iframe[srcdoc]').forEach(fix);
          });
        });
        scrubFrames(w);
      }).observe(w.document, { childList: true, subtree: true, attributes: true, attributeFilter: ['srcdoc'] });
    } catch (err) {}
  }
  function guardFrames(w) {
    guardSrcdoc(w);
    var self = function (x) { return x; };
    var view = function (doc) { return doc.defaultView; };
    ['HTMLIFrameElement', 'HTMLFrameElement', 'HTMLObjectElement', 'HTMLEmbedElement'].forEach(function (n) {
      var p = w[n] && w[n].prototype;
      wrapGetter(p, 'contentWindow', self);
      wrapGetter(p, 'contentDocument', view);
    });
    [['Node', ['appendChild', 'insertBefore', 'replaceChild']],
     ['Element', ['append', 'prepend', 'before', 'after', 'replaceWith', 'replaceChildren', 'insertAdjacentElement', 'insertAdjacentHTML', 'setHTMLUnsafe']],
     ['DocumentFragment', ['append', 'prepend', 'replaceChildren']],
     ['Document', ['write', 'writeln', 'execCommand', 'append', 'prepend', 'replaceChildren']],
     ['Range', ['insertNode', 'surroundContents']],
     ['CharacterData', ['before', 'after', 'replaceWith']]].forEach(function (entry) {
      var p = w[entry[0]] && w[entry[0]].prototype;
      entry[1].forEach(function (m) { wrapMethod(p, m, w); });
    });
    ['innerHTML', 'outerHTML'].forEach(function (prop) { wrapSetter(w.Element && w.Element.prototype, prop, w); });
    wrapSetter(w.ShadowRoot && w.ShadowRoot.prototype, 'innerHTML', w);
  }
  scrub(window);
})();`;

/** The prelude as one inline script (the app's CSP allows inline scripts). */
export const APP_PRELUDE_SCRIPT = `<script>${PRELUDE}</script>`;

/**
 * `html` with the prelude first: after a leading doctype (so the document keeps standards mode),
 * before anything else, so no script of the app can run before it.
 */
export function withAppPrelude(html: string): string {
  const doctype = /^\s*(<!--[\s\S]*?-->\s*)*<!doctype[^>]*>/i.exec(html);
  const at = doctype ? doctype[0].length : 0;
  return `${html.slice(0, at)}${APP_PRELUDE_SCRIPT}${html.slice(at)}`;
}
