import { Readable } from "node:stream";

import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";

import { ConfigError } from "../config.ts";

import { assertSafeName, newFileName, SAFE_NAME, type Storage } from "./storage.ts";

/** Where the files go: a bucket, a key prefix ("" or ending in "/"), and how to reach it (STORAGE_URL, api/config.ts). */
export type S3Location = {
  bucket: string;
  prefix: string;
  /** An S3-compatible server (MinIO, Ceph, R2...); unset: AWS itself. */
  endpoint?: string;
  region: string;
  /** bucket in the path (http://host/bucket/key) instead of the host name: what MinIO and most others want. */
  forcePathStyle: boolean;
};

export type S3Storage = Storage & {
  readonly client: S3Client;
  readonly location: S3Location;
  /** The object key of a file: `{prefix}{folder}/{name}`, the disk's path under its root. */
  key(folder: string, name: string): string;
};

/**
 * The same contract as the disk (storage.ts): same names, null for a missing file. Credentials come from the SDK's
 * default chain (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a profile, an instance or task role), never from
 * STORAGE_URL; tests pass their own.
 */
export function createS3Storage(
  location: S3Location,
  credentials?: { accessKeyId: string; secretAccessKey: string },
): S3Storage {
  const client = new S3Client({
    region: location.region,
    endpoint: location.endpoint,
    forcePathStyle: location.forcePathStyle,
    credentials,
    // The SDK's default checksums (since early 2025) are refused by several S3-compatible servers; ask only where S3
    // requires them.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    // A bucket that stops answering fails the request instead of holding it (the SDK's default waits forever).
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000 },
  });
  const key = (folder: string, name: string) => `${location.prefix}${folder}/${name}`;
  const put = (folder: string, name: string, bytes: Uint8Array) =>
    client.send(new PutObjectCommand({ Bucket: location.bucket, Key: key(folder, name), Body: bytes }));
  const get = async (folder: string, name: string) => {
    if (!SAFE_NAME.test(name)) return null;
    try {
      return await client.send(new GetObjectCommand({ Bucket: location.bucket, Key: key(folder, name) }));
    } catch (error) {
      // Only a missing object is null: a bucket that is gone or refuses us is an outage, not a 404.
      if ((error as Error).name === "NoSuchKey") return null;
      throw error;
    }
  };

  return {
    client,
    location,
    key,
    async save(folder, extension, bytes) {
      const name = newFileName(extension);
      await put(folder, name, bytes);
      return name;
    },
    async saveStream(folder, extension, chunks) {
      const name = newFileName(extension);
      // The SDK's multipart upload: parts of 5 MB sent as they fill, two at a time (at most ~10 MB held), the object
      // there only once completed; a body that fails aborts the upload and its parts (a small body is one PutObject
      // after its last chunk, so nothing at all).
      const failed: { error?: unknown } = {};
      const watched = async function* () {
        try {
          yield* chunks;
        } catch (error) {
          failed.error = error;
          throw error;
        }
      };
      const upload = new Upload({
        client,
        params: { Bucket: location.bucket, Key: key(folder, name), Body: Readable.from(watched()) },
        queueSize: 2,
      });
      try {
        await upload.done();
      } catch (error) {
        // The body's own error (a file over its limit) is the caller's answer, even when the abort of the parts failed
        // too (a server without AbortMultipartUpload: its parts are never an object; docs/storage.md 'Orphan files').
        throw "error" in failed ? failed.error : error;
      }
      return name;
    },
    async write(folder, name, bytes) {
      assertSafeName(name);
      await put(folder, name, bytes);
    },
    async remove(folder, name) {
      assertSafeName(name);
      // S3 answers 204 for a key that does not exist: removing twice is no error, as on disk.
      await client.send(new DeleteObjectCommand({ Bucket: location.bucket, Key: key(folder, name) }));
    },
    async *list(folder) {
      const prefix = key(folder, "");
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: location.bucket, Prefix: prefix, ContinuationToken: token }),
        );
        for (const object of page.Contents ?? []) {
          const name = object.Key?.slice(prefix.length) ?? "";
          if (SAFE_NAME.test(name) && object.LastModified) yield { name, modifiedAt: object.LastModified };
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
    async read(folder, name) {
      const answer = await get(folder, name);
      return answer ? (answer.Body ? await answer.Body.transformToByteArray() : new Uint8Array()) : null;
    },
    async readStream(folder, name) {
      const answer = await get(folder, name);
      if (!answer) return null;
      const body = answer.Body ? (answer.Body.transformToWebStream() as ReadableStream<Uint8Array>) : emptyStream();
      return { body, size: answer.ContentLength ?? 0 };
    },
  };
}

const emptyStream = () => new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });

/** At start: the bucket answers with these credentials, or the server stops saying so (as a bad setting does). */
export async function checkBucket(storage: S3Storage) {
  const { bucket, endpoint, region } = storage.location;
  try {
    await storage.client.send(new HeadBucketCommand({ Bucket: bucket }));
  } catch (error) {
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    // S3's answer by name and status; short of one (no connection, no credentials), what went wrong on our side.
    const reason = status ? `${(error as Error).name} (HTTP ${status})` : (error as Error).message;
    storage.client.destroy();
    throw new ConfigError(
      "Storage unavailable:\n" +
        `  STORAGE_URL: the bucket "${bucket}" at ${endpoint ?? `AWS ${region}`} did not answer: ${reason}. ` +
        "Check that it exists and that AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY may read and write it.",
    );
  }
}
