package dev.starling.server.config;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server's TLS certificate chain and private key, read and checked when it starts, so that a
 * bad file stops it with an error naming the key and the file rather than a server whose every
 * handshake fails: the chain must hold PEM certificates, the key must be a PEM private key in PKCS#8
 * ({@code BEGIN PRIVATE KEY}) or PKCS#1 ({@code BEGIN RSA PRIVATE KEY}, which the TLS stack does
 * not read and which is handed on as PKCS#8), unencrypted, and it must be the key of the chain's
 * first certificate (a signature made with it verifies with that certificate's public key).
 */
public record TlsFiles(byte[] certChainPem, byte[] pkcs8KeyPem) {
    private static final Pattern PEM = Pattern.compile(
            "-----BEGIN ([A-Z0-9 ]+)-----\\s*([A-Za-z0-9+/=\\s]*?)-----END \\1-----");
    /** The DER of AlgorithmIdentifier { rsaEncryption, NULL }, which a PKCS#8 RSA key carries. */
    private static final byte[] RSA_ALGORITHM = {0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7,
        0x0d, 0x01, 0x01, 0x01, 0x05, 0x00};

    /** Reads and checks {@code tls}'s files (TLS enabled). */
    public static TlsFiles read(ServerConfig.Tls tls) {
        byte[] chain = bytes("tls.cert", tls.cert());
        Certificate first = certificates(tls.cert(), chain).get(0);
        byte[] pkcs8 = pkcs8(tls.key(), new String(bytes("tls.key", tls.key()), StandardCharsets.US_ASCII));
        PrivateKey key = privateKey(tls.key(), pkcs8, first.getPublicKey().getAlgorithm());
        if (!pair(key, first.getPublicKey())) {
            throw new ConfigException("tls.key " + tls.key() + " is not the private key of the certificate in tls.cert "
                    + tls.cert() + ": every TLS handshake would fail");
        }
        String pem = "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(pkcs8)
                + "\n-----END PRIVATE KEY-----\n";
        return new TlsFiles(chain, pem.getBytes(StandardCharsets.US_ASCII));
    }

    private static byte[] bytes(String key, Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new ConfigException(key + " " + file + " cannot be read: " + e.getMessage());
        }
    }

    private static List<Certificate> certificates(Path file, byte[] chain) {
        try {
            Collection<? extends Certificate> read = CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(chain));
            if (!read.isEmpty()) {
                return new ArrayList<>(read);
            }
        } catch (GeneralSecurityException e) {
            // said below, without the parser's words, which quote the file
        }
        throw new ConfigException("tls.cert " + file + " holds no PEM certificate (-----BEGIN CERTIFICATE-----)");
    }

    /** The key's PKCS#8 DER, from the first private key block of {@code pem}. */
    private static byte[] pkcs8(Path file, String pem) {
        Matcher m = PEM.matcher(pem);
        while (m.find()) {
            String type = m.group(1);
            if (!type.endsWith("PRIVATE KEY")) {
                continue;
            }
            byte[] der;
            try {
                der = Base64.getMimeDecoder().decode(m.group(2));
            } catch (IllegalArgumentException e) {
                throw new ConfigException("tls.key " + file + ": its " + type + " block is not base64");
            }
            return switch (type) {
                case "PRIVATE KEY" -> der;
                case "RSA PRIVATE KEY" -> rsaPkcs8(der);
                case "ENCRYPTED PRIVATE KEY" -> throw new ConfigException("tls.key " + file + " is encrypted; give it "
                        + "unencrypted (openssl pkcs8 -topk8 -nocrypt) and keep the file readable by the server alone");
                default -> throw new ConfigException("tls.key " + file + " holds a key of type '" + type + "', which is "
                        + "not read; give it as PKCS#8 (openssl pkcs8 -topk8 -nocrypt -in " + file + ")");
            };
        }
        throw new ConfigException("tls.key " + file + " holds no PEM private key (-----BEGIN PRIVATE KEY----- or "
                + "-----BEGIN RSA PRIVATE KEY-----)");
    }

    /** PKCS#1's RSAPrivateKey wrapped as PKCS#8's PrivateKeyInfo { version 0, rsaEncryption, OCTET STRING }. */
    private static byte[] rsaPkcs8(byte[] pkcs1) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(new byte[] {0x02, 0x01, 0x00});
        body.writeBytes(RSA_ALGORITHM);
        body.writeBytes(tagged(0x04, pkcs1));
        return tagged(0x30, body.toByteArray());
    }

    /** A DER element: {@code tag}, the definite length of {@code content}, then it. */
    private static byte[] tagged(int tag, byte[] content) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(tag);
        int n = content.length;
        if (n < 0x80) {
            out.write(n);
        } else {
            int bytes = (32 - Integer.numberOfLeadingZeros(n) + 7) / 8;
            out.write(0x80 | bytes);
            for (int i = bytes - 1; i >= 0; i--) {
                out.write(n >>> (8 * i));
            }
        }
        out.writeBytes(content);
        return out.toByteArray();
    }

    private static PrivateKey privateKey(Path file, byte[] pkcs8, String algorithm) {
        try {
            return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
        } catch (GeneralSecurityException e) {
            throw new ConfigException("tls.key " + file + " is not a well-formed " + algorithm
                    + " private key, the algorithm of the certificate in tls.cert");
        }
    }

    /** Whether a signature made with {@code key} verifies with {@code certified}. */
    private static boolean pair(PrivateKey key, PublicKey certified) {
        String algorithm = "SHA256with" + (key.getAlgorithm().equals("EC") ? "ECDSA" : key.getAlgorithm());
        byte[] probe = "starling tls key check".getBytes(StandardCharsets.US_ASCII);
        try {
            Signature sign = Signature.getInstance(algorithm);
            sign.initSign(key);
            sign.update(probe);
            byte[] signature = sign.sign();
            Signature verify = Signature.getInstance(algorithm);
            verify.initVerify(certified);
            verify.update(probe);
            return verify.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }
}
