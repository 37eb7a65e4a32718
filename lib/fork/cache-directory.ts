/**
 * Where a fork keeps what it fetched from its upstream between runs: the platform's cache
 * directory (XDG on Linux, ~/Library/Caches on macOS, %LOCALAPPDATA% on Windows), under
 * `preconf-devnet/fork`.
 */
import { homedir } from 'node:os'
import { join } from 'node:path'

/** The default directory of the fork cache on this platform. */
export function defaultForkCacheDirectory(): string {
  const { platform, env } = process
  if (platform === 'win32') return join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'preconf-devnet', 'Cache', 'fork')
  if (platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'preconf-devnet', 'fork')
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'preconf-devnet', 'fork')
}
