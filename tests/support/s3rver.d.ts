// The part of s3rver 3.7 (no types published) the object-storage tests use.
declare module "s3rver" {
  interface S3rverOptions {
    port: number;
    address: string;
    silent?: boolean;
    directory: string;
    configureBuckets?: { name: string; configs: string[] }[];
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
