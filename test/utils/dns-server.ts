import { createServer, Packet, type Resource } from 'dns2';

export interface TestDnsServer {
  /** `127.0.0.1:<port>`, for DNS_SERVERS. */
  address: string;
  /** TXT records by name (lower case): what the zone publishes now. */
  txt: Map<string, string[]>;
  /** Names whose queries get no answer at all (a resolver that times out). */
  silent: Set<string>;
  /** Names answered SERVFAIL (a resolver that fails). */
  failing: Set<string>;
  close(): Promise<void>;
}

/**
 * An authoritative DNS server on loopback (dns2, UDP on a port the kernel hands out and that stays bound), for
 * domain verification: names in `txt` answer their TXT records, other names NXDOMAIN.
 */
export async function startDnsServer(): Promise<TestDnsServer> {
  const txt = new Map<string, string[]>();
  const silent = new Set<string>();
  const failing = new Set<string>();
  const server = createServer({
    udp: true,
    handle: (request, send) => {
      const [question] = request.questions;
      const name = (question?.name ?? '').toLowerCase();
      if (silent.has(name)) return;
      const response = Packet.createResponseFromRequest(request);
      if (failing.has(name)) {
        response.header.rcode = Packet.RCODE.SERVFAIL;
      } else if (!txt.has(name)) {
        response.header.rcode = Packet.RCODE.NXDOMAIN;
      } else if (question.type === Packet.TYPE.TXT) {
        for (const data of txt.get(name)!)
          // a plain record, as dns2 encodes it (its typings ask for an encoder of records it decoded)
          response.answers.push({
            name,
            type: Packet.TYPE.TXT,
            class: Packet.CLASS.IN,
            ttl: 1,
            data,
          } as Resource);
      }
      void send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const port = addresses.udp?.port;
  if (!port) throw new Error('the test DNS server did not bind');
  return { address: `127.0.0.1:${port}`, txt, silent, failing, close: () => server.close() };
}
