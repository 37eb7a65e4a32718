/** The devnet's name and version (`preconf-devnet --version`, `web3_clientVersion`); the package's version. */
export const VERSION = 'preconf-devnet/v0.1.0'
