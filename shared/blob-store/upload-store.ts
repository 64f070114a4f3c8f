/**
 * Port for the two-step upload's staging area: the client sends the bytes straight to storage with a
 * short-lived signed URL (no 6 MB Lambda limit on the way), then the service inspects them and
 * promotes them into the public blob store. S3 (a private bucket, objects expire after a day) when
 * deployed; a folder served by the local server under `npm start` and the tests.
 */
export interface UploadConstraints {
  readonly contentType: string;
  /** The exact size the client declared: storage refuses any other length. */
  readonly sizeBytes: number;
  readonly expiresInSeconds: number;
}

export interface PresignedUpload {
  readonly method: 'PUT';
  readonly url: string;
  /** Headers the PUT must carry with exactly these values (they are part of the signature). */
  readonly headers: Readonly<Record<string, string>>;
  readonly expiresAt: Date;
}

export interface StagedObject {
  readonly sizeBytes: number;
}

export interface UploadStore {
  presignPut(key: string, constraints: UploadConstraints, requestBaseUrl: string, now?: Date): Promise<PresignedUpload>;
  /** Size of the staged object, or undefined when nothing was uploaded. */
  head(key: string): Promise<StagedObject | undefined>;
  /** The first `maxBytes` bytes (or all, when smaller). */
  readPrefix(key: string, maxBytes: number): Promise<Buffer>;
  read(key: string): Promise<Buffer>;
  /** Copies the staged bytes to the public blob store under `blobKey`. */
  promote(key: string, blobKey: string, contentType: string): Promise<void>;
  /** Drops the staged bytes (best effort: staged objects expire anyway). */
  discard(key: string): Promise<void>;
}
