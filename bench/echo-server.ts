/**
 * The bare node:http JSON echo server (the HTTP floor), run as a process of its own as the nodes
 * it is compared with are: it parses each JSON-RPC request and answers the result its argument
 * (a JSON object, method to result) gives for the method, else `0x0`, and prints its URL. Given
 * the results a node gives, the floor sends the node's reply bytes and does none of its work.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

const results = JSON.parse(process.argv[2] ?? '{}') as Record<string, unknown>

const server = createServer({ keepAlive: true }, (request, response) => {
  const chunks: Buffer[] = []
  request.on('data', (chunk: Buffer) => chunks.push(chunk))
  request.on('end', () => {
    const { id, method } = JSON.parse(Buffer.concat(chunks).toString()) as { id: unknown; method: string }
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ jsonrpc: '2.0', id, result: results[method] ?? '0x0' }))
  })
})
server.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${(server.address() as AddressInfo).port}\n`))
