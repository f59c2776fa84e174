// PEM material for the TLS Secret warning cases (generated once with openssl; test data only):
// a self-signed P-256 certificate with its key, a second P-256 key and an Ed25519 key.
// No Go counterpart: the e2e test harness.
export const CERT_A = `-----BEGIN CERTIFICATE-----
MIIBbTCCAROgAwIBAgIUCvYvY4mcGEx4khzDX3VD0t8HUmAwCgYIKoZIzj0EAwIw
DDEKMAgGA1UEAwwBYTAeFw0yNjExMjUwNTIwMjFaFw0zNjExMjIwNTIwMjFaMAwx
CjAIBgNVBAMMAWEwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAQsqYHtO9bne6hi
guW4D1j19IgYnqNLi74yh+y9J/m7/dn/M1alc0xHAL/nYhIv/G+n4xtQLj++OI0n
LMDqqwk1o1MwUTAdBgNVHQ4EFgQUpod/UGdR51nnyzI3SR53sjkDoS8wHwYDVR0j
BBgwFoAUpod/UGdR51nnyzI3SR53sjkDoS8wDwYDVR0TAQH/BAUwAwEB/zAKBggq
hkjOPQQDAgNIADBFAiEAybJaLGT+lSeTQL3G+Y/hZKqaOvd9WuxAjgJQMc4fyycC
ICKCnj6ICepCeyllegFegqg98Jzp0jqoHBgIk3UImlwU
-----END CERTIFICATE-----
`;
export const KEY_A = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQghNVlhfUUZ/ksOddS
mG6Fim3NIpZzWvM8Zc1GP+fm64ihRANCAAQsqYHtO9bne6higuW4D1j19IgYnqNL
i74yh+y9J/m7/dn/M1alc0xHAL/nYhIv/G+n4xtQLj++OI0nLMDqqwk1
-----END PRIVATE KEY-----
`;
export const KEY_B = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgAkl6xZVwPctx5oRh
xd7VtP1hOhCFdPlmhG9XQxCoRDChRANCAARyZkKJmdjALENs0YDg0PkBrZ2RM9E7
omwE/RMMEbmO8X7TROb0hr4mJfP6rFb7RGNYbialNtZdtrynW2dGYWge
-----END PRIVATE KEY-----
`;
export const KEY_ED25519 = `-----BEGIN PRIVATE KEY-----
MC4CAQAwBQYDK2VwBCIEIDc0MVoLzA4Gcu7/DO8OyliuxpLewUa+fKtI6WOXOcg8
-----END PRIVATE KEY-----
`;
