// A self-signed certificate on a 512-bit RSA key (CN weak.test, valid until 2126): its PEMs parse
// and the key matches, yet OpenSSL's default security level refuses it in a TLS context
// ("ee key too small"), the case a security review found (docs/gateway-config.md, certificates).
// Made once with `openssl req -x509 -newkey rsa:512 -nodes -days 36500 -subj /CN=weak.test`.

/** The certificate PEM. */
export const WEAK_CERT_PEM = `
-----BEGIN CERTIFICATE-----
MIIBgTCCASugAwIBAgIUaQkJUGwQklb3FN5LR1tJjuOC0+QwDQYJKoZIhvcNAQEL
BQAwFDESMBAGA1UEAwwJd2Vhay50ZXN0MCAXDTI2MTEyNzIwMTY1MFoYDzIxMjYx
MTAzMjAxNjUwWjAUMRIwEAYDVQQDDAl3ZWFrLnRlc3QwXDANBgkqhkiG9w0BAQEF
AANLADBIAkEAzTkqBQE0hXOvHWCiGyod68EU4Ki76Z1oYbNhfD1AljU6R0iM4sNT
3+gx+7/JDTFcfOzcFAGpK6NC/QJHaf1o8QIDAQABo1MwUTAdBgNVHQ4EFgQU6kF0
WcGejQmNhN5Z7zPjWT42LNcwHwYDVR0jBBgwFoAU6kF0WcGejQmNhN5Z7zPjWT42
LNcwDwYDVR0TAQH/BAUwAwEB/zANBgkqhkiG9w0BAQsFAANBAJmj7HQYn7Ft6eq1
dzd+ixMrejYrU4G0sxWQa33K5jq07QYMNMH6Xga6GDSjnM9j/r82svWyXr2ZP7XS
0wzDsTo=
-----END CERTIFICATE-----
`.trimStart();

/** Its 512-bit private key PEM. */
export const WEAK_KEY_PEM = `
-----BEGIN PRIVATE KEY-----
MIIBVAIBADANBgkqhkiG9w0BAQEFAASCAT4wggE6AgEAAkEAzTkqBQE0hXOvHWCi
Gyod68EU4Ki76Z1oYbNhfD1AljU6R0iM4sNT3+gx+7/JDTFcfOzcFAGpK6NC/QJH
af1o8QIDAQABAkEAqagfX8HOTKEFXLD9cp2P3M1jWBLGPmw91b840T/F/CYLyENN
ko6S++YfNvK5ygHGwieo3TMfFwWtqcvVUoK30QIhAOdTysAy+LokbbSinhb2WpP8
nh5f8dKQHi3aqZQXczg9AiEA4xyfcCuaGFRBAPluIAKNM1+TMqeJJz/uFuYrlu/v
ysUCIFLf0xhuamuNl3wKcma5lZPFAgTRzLnqBdXZq70xdYblAiBcoU3+SCpfhe3F
Yfaio6fHrlGxNVfhZFfNiy94LoCVKQIgLaAGLB0bM8rbOu80da4O/koOIpBwQG6q
l8q4Tpq0AIM=
-----END PRIVATE KEY-----
`.trimStart();
