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
