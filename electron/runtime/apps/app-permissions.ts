// `_meta.ui.permissions` of a resource as the frames' `allow` attribute (Permissions Policy).
// Nothing is delegated until the user granted the server's permissions; unknown names are ignored.
import { APP_PERMISSIONS, type AppPermission } from '../../../shared/mcp-apps.ts';

const FEATURE: Record<AppPermission, string> = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'geolocation',
  clipboardWrite: 'clipboard-write',
};

/** The permissions a resource asks for (known names only, in a fixed order). */
export function requestedPermissions(permissions: unknown): AppPermission[] {
  if (!permissions || typeof permissions !== 'object' || Array.isArray(permissions)) return [];
  return APP_PERMISSIONS.filter((name) => Object.hasOwn(permissions, name));
}

/** The `allow` attribute: the requested features when granted, else none (an empty attribute). */
export function allowAttribute(requested: AppPermission[], granted: boolean): string {
  return granted ? requested.map((name) => FEATURE[name]).join('; ') : '';
}

/**
 * Powerful features no app gets unless the user granted them (the frame's `allow` attribute
 * names those): capture devices (without them Chromium's WebRTC gathers no local addresses),
 * screen capture, sensors, payment, USB/serial/HID, local fonts. Sent as the app document's
 * Permissions-Policy header; a granted feature stays limited by the `allow` attribute.
 */
const DENIED_UNLESS_GRANTED = [
  'camera', 'microphone', 'geolocation', 'clipboard-write', 'clipboard-read', 'display-capture', 'speaker-selection',
  'accelerometer', 'gyroscope', 'magnetometer', 'payment', 'usb', 'serial', 'hid', 'bluetooth', 'local-fonts', 'idle-detection',
  'screen-wake-lock', 'publickey-credentials-get', 'publickey-credentials-create', 'otp-credentials', 'window-management',
];

/** The Permissions-Policy header for an app whose frame has `allow` (allowAttribute's value). */
export function appPermissionsPolicy(allow: string): string {
  const granted = new Set(allow.split(';').map((part) => part.trim().split(/\s+/)[0]).filter(Boolean));
  return DENIED_UNLESS_GRANTED.map((feature) => `${feature}=${granted.has(feature) ? '*' : '()'}`).join(', ');
}
