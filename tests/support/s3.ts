/**
 * A local S3 server for the storage tests: s3rver (plain JavaScript from the registry, nothing downloaded at install)
 * on a free loopback port, keeping its objects in a temporary directory removed by stop(). Its one account's key is
 * S3RVER; it does not verify V4 signatures, so these tests check our keys, bodies and errors, not AWS's sign-in.
 */
import { mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";

import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import S3rver from "s3rver";

import { createS3Storage, type S3Location, type S3Storage } from "../../api/services/storage-s3.ts";

export const S3RVER_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

export type LocalS3 = {
  /** http://127.0.0.1:<port> */
  endpoint: string;
  location(bucket: string, prefix?: string): S3Location;
  /** A storage with its own client (as another server would have), closed by stop(). */
  storage(bucket: string, prefix?: string): S3Storage;
  /** Every key in a bucket, sorted. */
  keys(bucket: string): Promise<string[]>;
  stop(): Promise<void>;
};

export async function startLocalS3(buckets: string[]): Promise<LocalS3> {
  const directory = mkdtempSync(path.join(tmpdir(), "s3rver-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    directory,
    silent: true,
    configureBuckets: buckets.map((name) => ({ name, configs: [] })),
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const storages: S3Storage[] = [];

  const location = (bucket: string, prefix = ""): S3Location => ({
    bucket,
    prefix,
    endpoint,
    region: "us-east-1",
    forcePathStyle: true,
  });
  const storage = (bucket: string, prefix = "") => {
    const made = createS3Storage(location(bucket, prefix), S3RVER_CREDENTIALS);
    storages.push(made);
    return made;
  };
  let lister: S3Storage | undefined;

  return {
    endpoint,
    location,
    storage,
    async keys(bucket) {
      lister ??= storage(bucket);
      const answer = await lister.client.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (answer.Contents ?? []).map((object) => object.Key!).sort();
    },
    async stop() {
      for (const made of storages) made.client.destroy();
      // The SDK keeps connections alive; close() would wait for them to time out.
      (server as unknown as { httpServer: Server }).httpServer.closeAllConnections();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
