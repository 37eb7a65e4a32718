/**
 * Preload (`node --require`) that makes the native libsecp256k1 addon unresolvable, as on a
 * platform without the prebuilt binary, so a child process exercises the @noble/curves fallback.
 * It matches the resolved file, since loaders such as tsx may rewrite the request first.
 */
const Module = require('node:module')

const resolve = Module._resolveFilename
Module._resolveFilename = function (request, ...rest) {
  const filename = resolve.call(this, request, ...rest)
  if (/[\\/]secp256k1[\\/]bindings\.js$/.test(filename)) {
    const error = new Error(`Cannot find module '${request}'`)
    error.code = 'MODULE_NOT_FOUND'
    throw error
  }
  return filename
}
