import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { isoCBOR } from "@simplewebauthn/server/helpers";
import { base64url } from "@/server/auth/crypto";

/**
 * A tiny software passkey for the workerd tests: an ES256 key made with WebCrypto, "none"
 * attestation, and authenticator data built byte by byte as WebAuthn §6.1 lays it out, so the
 * server's real verification (@simplewebauthn/server) runs against real signatures.
 */

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

const encoder = new TextEncoder();

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

function uint32(value: number): Uint8Array {
  return new Uint8Array([(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff]);
}

/** An ECDSA signature as WebAuthn carries it: DER SEQUENCE { INTEGER r, INTEGER s }. */
function derSignature(raw: Uint8Array): Uint8Array {
  const integer = (bytes: Uint8Array) => {
    let start = 0;
    while (start < bytes.length - 1 && bytes[start] === 0) start++;
    let value = bytes.slice(start);
    if ((value[0] ?? 0) & 0x80) value = concat(new Uint8Array([0]), value);
    return concat(new Uint8Array([0x02, value.length]), value);
  };
  const body = concat(integer(raw.slice(0, 32)), integer(raw.slice(32)));
  return concat(new Uint8Array([0x30, body.length]), body);
}

type Options = {
  /** Where the "browser" says the ceremony ran (client data origin). */
  origin?: string;
  /** Overrides the counter this response reports (a clone reports an old one). */
  signCount?: number;
  userVerified?: boolean;
  /** Overrides the user handle sent back. */
  userHandle?: string;
};

export class SoftAuthenticator {
  readonly credentialId = crypto.getRandomValues(new Uint8Array(16));
  signCount = 0;
  private userHandle: string | undefined;

  private constructor(private readonly keys: CryptoKeyPair) {}

  static async create(): Promise<SoftAuthenticator> {
    const keys = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, [
      "sign",
      "verify",
    ])) as CryptoKeyPair;
    return new SoftAuthenticator(keys);
  }

  get id(): string {
    return base64url(this.credentialId);
  }

  private async authData(rpId: string, flags: number, signCount: number, attested?: Uint8Array): Promise<Uint8Array> {
    const rpIdHash = await sha256(encoder.encode(rpId));
    return concat(rpIdHash, new Uint8Array([flags]), uint32(signCount), attested ?? new Uint8Array());
  }

  private async coseKey(): Promise<Uint8Array> {
    const jwk = (await crypto.subtle.exportKey("jwk", this.keys.publicKey)) as JsonWebKey;
    const bytes = (text = "") => Uint8Array.from(atob(text.replaceAll("-", "+").replaceAll("_", "/")), (ch) => ch.charCodeAt(0));
    return isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, bytes(jwk.x)],
        [-3, bytes(jwk.y)],
      ]),
    );
  }

  private clientData(type: string, challenge: string, origin: string): string {
    return base64url(encoder.encode(JSON.stringify({ type, challenge, origin, crossOrigin: false })));
  }

  /** navigator.credentials.create(), as @simplewebauthn/browser would send its answer. */
  async register(options: PublicKeyCredentialCreationOptionsJSON, opts: Options = {}): Promise<RegistrationResponseJSON> {
    this.userHandle = options.user.id;
    const flags = FLAG_UP | FLAG_AT | (opts.userVerified === false ? 0 : FLAG_UV);
    const idLength = new Uint8Array([this.credentialId.length >> 8, this.credentialId.length & 0xff]);
    const attested = concat(new Uint8Array(16), idLength, this.credentialId, await this.coseKey());
    const authData = await this.authData(options.rp.id ?? "localhost", flags, this.signCount, attested);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, never>>([
        ["fmt", "none"],
        ["attStmt", new Map<string, never>()],
        ["authData", authData],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: this.clientData("webauthn.create", options.challenge, opts.origin ?? "http://localhost:8787"),
        attestationObject: base64url(attestationObject),
        transports: ["internal"],
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  /** navigator.credentials.get(): signs authData ‖ SHA-256(clientDataJSON); the counter goes up. */
  async authenticate(options: PublicKeyCredentialRequestOptionsJSON, opts: Options = {}): Promise<AuthenticationResponseJSON> {
    this.signCount += 1;
    const flags = FLAG_UP | (opts.userVerified === false ? 0 : FLAG_UV);
    const authData = await this.authData(options.rpId ?? "localhost", flags, opts.signCount ?? this.signCount);
    const clientDataJSON = this.clientData("webauthn.get", options.challenge, opts.origin ?? "http://localhost:8787");
    const clientDataBytes = Uint8Array.from(atob(clientDataJSON.replaceAll("-", "+").replaceAll("_", "/")), (ch) =>
      ch.charCodeAt(0),
    );
    const signed = concat(authData, await sha256(clientDataBytes));
    const raw = new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, this.keys.privateKey, signed));
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON,
        authenticatorData: base64url(authData),
        signature: base64url(derSignature(raw)),
        userHandle: opts.userHandle ?? this.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }
}
