// The system's libcrypto (OpenSSL 3): digests, AES-GCM and P-256 signatures for ArkivatorCrypto.
// The low-level SHA-1 and SHA-256 calls are marked deprecated in OpenSSL 3 but kept: unlike the
// EVP calls they need no allocation and cannot fail, so a digest stays a plain value. Their marks
// are silenced here, and only here.
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/x509.h>
