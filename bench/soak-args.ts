/**
 * The soak's handling of its own argv (flags whose value is itself a list of flags) and of
 * `--cli-args`: a shell-like split (quotes group words) and reading a flag's value.
 */

/** `--flag value` as `--flag=value` for each of `flags`, so node:util's parseArgs takes a value that starts with `--`. */
export function joinOptionValues(argv: readonly string[], flags: readonly string[]): string[] {
  const joined: string[] = []
  for (let i = 0; i < argv.length; i++) {
    if (flags.includes(argv[i]) && i + 1 < argv.length) joined.push(`${argv[i]}=${argv[++i]}`)
    else joined.push(argv[i])
  }
  return joined
}

/** Splits `text` into words like a shell: whitespace separates, single or double quotes group. */
export function splitArgs(text: string): string[] {
  const words: string[] = []
  for (const match of text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) words.push(match[1] ?? match[2] ?? match[3])
  return words
}

/** The value of `flag` in `args` (`--flag value` or `--flag=value`; the last one wins), if given. */
export function valueOf(args: readonly string[], flag: string): string | undefined {
  let value: string | undefined
  args.forEach((arg, i) => {
    if (arg === flag) value = args[i + 1]
    else if (arg.startsWith(`${flag}=`)) value = arg.slice(flag.length + 1)
  })
  return value
}
