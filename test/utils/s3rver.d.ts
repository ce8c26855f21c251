/** The part of s3rver (a local S3-compatible server, test only) the files tests use; it ships no types. */
declare module 's3rver' {
  export default class S3rver {
    constructor(options: { port: number; address: string; silent: boolean; directory: string });
    run(): Promise<import('node:net').AddressInfo>;
    close(): Promise<void>;
  }
}
