package io.github.distlock.autoconfigure.security;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Certificates made at test time with the JDK's {@code keytool}: a CA, a server
 * certificate it signed for {@code localhost} and {@code 127.0.0.1}, and a second,
 * unrelated CA. Every store is PKCS12 with the password {@link #PASSWORD}.
 */
final class TestCertificates {

	static final String PASSWORD = "store-password";

	private final Path directory;

	private TestCertificates(Path directory) {
		this.directory = directory;
	}

	static TestCertificates create(Path directory) throws Exception {
		TestCertificates certificates = new TestCertificates(directory);
		certificates.generate();
		return certificates;
	}

	/** Key store of the server: its key and the chain up to the CA. */
	Path serverKeyStore() {
		return this.directory.resolve("server.p12");
	}

	/** Trust store with the CA that signed the server's certificate. */
	Path caTrustStore() {
		return this.directory.resolve("ca-trust.p12");
	}

	/** Trust store with an unrelated CA only. */
	Path otherCaTrustStore() {
		return this.directory.resolve("other-ca-trust.p12");
	}

	private void generate() throws Exception {
		keytool("-genkeypair", "-alias", "ca", "-dname", "CN=distlock test CA", "-ext", "bc:c", "-keyalg", "EC",
				"-validity", "2", "-keystore", "ca.p12");
		keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", "ca.p12", "-file", "ca.pem");
		keytool("-genkeypair", "-alias", "other-ca", "-dname", "CN=unrelated CA", "-ext", "bc:c", "-keyalg", "EC",
				"-validity", "2", "-keystore", "other-ca.p12");
		keytool("-exportcert", "-rfc", "-alias", "other-ca", "-keystore", "other-ca.p12", "-file", "other-ca.pem");
		keytool("-genkeypair", "-alias", "server", "-dname", "CN=localhost", "-keyalg", "EC", "-validity", "2",
				"-keystore", "server.p12");
		keytool("-certreq", "-alias", "server", "-keystore", "server.p12", "-file", "server.csr");
		keytool("-gencert", "-rfc", "-alias", "ca", "-keystore", "ca.p12", "-infile", "server.csr", "-outfile",
				"server.pem", "-validity", "2", "-ext", "san=dns:localhost,ip:127.0.0.1", "-ext", "eku=serverAuth");
		keytool("-importcert", "-noprompt", "-alias", "ca", "-file", "ca.pem", "-keystore", "server.p12");
		keytool("-importcert", "-noprompt", "-alias", "server", "-file", "server.pem", "-keystore", "server.p12");
		keytool("-importcert", "-noprompt", "-alias", "ca", "-file", "ca.pem", "-keystore", "ca-trust.p12");
		keytool("-importcert", "-noprompt", "-alias", "other-ca", "-file", "other-ca.pem", "-keystore",
				"other-ca-trust.p12");
	}

	private void keytool(String... arguments) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
		command.addAll(List.of(arguments));
		command.addAll(List.of("-storetype", "PKCS12", "-storepass", PASSWORD));
		Process process = new ProcessBuilder(command).directory(this.directory.toFile())
			.redirectErrorStream(true)
			.start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
			throw new IllegalStateException("keytool " + String.join(" ", arguments) + " failed: " + output);
		}
	}

}
