/** A config entry names a plugin file, not a built-in, when it holds a slash or ends like a module file. */
export function isPluginPath(name: string): boolean {
  return name.includes('/') || name.includes('\\') || /\.(c|m)?(j|t)sx?$/.test(name);
}
