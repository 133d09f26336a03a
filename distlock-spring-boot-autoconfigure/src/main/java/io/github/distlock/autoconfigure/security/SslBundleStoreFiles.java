package io.github.distlock.autoconfigure.security;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundleKey;
import org.springframework.boot.ssl.SslStoreBundle;

/**
 * The key and trust material of an {@link SslBundle}, written to PKCS12 files for the
 * ZooKeeper client.
 * <p>
 * ZooKeeper's Netty client builds its TLS context on every connection attempt from key
 * and trust store <em>files</em> named in its {@code ZKClientConfig}; it ignores
 * {@code zookeeper.ssl.context.supplier.class}, and a class named in a property could
 * only reach a bundle through static state shared by every client of the JVM. So the
 * bundle's stores are copied to owner-only temporary files protected by a random password
 * that lives only in the client's configuration, and deleted when the client is closed.
 */
final class SslBundleStoreFiles implements AutoCloseable {

	private static final SecureRandom random = new SecureRandom();

	private final String password;

	private final @Nullable Path keyStore;

	private final @Nullable Path trustStore;

	private SslBundleStoreFiles(String password, @Nullable Path keyStore, @Nullable Path trustStore) {
		this.password = password;
		this.keyStore = keyStore;
		this.trustStore = trustStore;
	}

	/**
	 * Write the stores of the given bundle.
	 * @param bundle the bundle
	 * @return the written files
	 */
	static SslBundleStoreFiles write(SslBundle bundle) {
		byte[] secret = new byte[24];
		random.nextBytes(secret);
		String password = Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
		SslStoreBundle stores = bundle.getStores();
		Path keyStore = null;
		Path trustStore = null;
		try {
			if (stores.getKeyStore() != null) {
				keyStore = store("keystore",
						copyKeys(stores.getKeyStore(), keyPasswords(bundle), bundle.getKey(), password.toCharArray()),
						password);
			}
			if (stores.getTrustStore() != null) {
				trustStore = store("truststore", copyCertificates(stores.getTrustStore()), password);
			}
			return new SslBundleStoreFiles(password, keyStore, trustStore);
		}
		catch (IOException | GeneralSecurityException | RuntimeException ex) {
			delete(keyStore);
			delete(trustStore);
			throw new IllegalStateException("Could not prepare the SSL bundle's stores for the ZooKeeper client: "
					+ ex.getClass().getSimpleName(), ex);
		}
	}

	private static List<char @Nullable []> keyPasswords(SslBundle bundle) {
		List<char @Nullable []> passwords = new ArrayList<>();
		if (bundle.getKey().getPassword() != null) {
			passwords.add(bundle.getKey().getPassword().toCharArray());
		}
		if (bundle.getStores().getKeyStorePassword() != null) {
			passwords.add(bundle.getStores().getKeyStorePassword().toCharArray());
		}
		passwords.add(new char[0]);
		passwords.add(null);
		return passwords;
	}

	private static KeyStore copyKeys(KeyStore source, List<char @Nullable []> sourcePasswords, SslBundleKey key,
			char[] password) throws IOException, GeneralSecurityException {
		KeyStore target = emptyPkcs12();
		for (String alias : Collections.list(source.aliases())) {
			if (!source.isKeyEntry(alias) || (key.getAlias() != null && !key.getAlias().equals(alias))) {
				continue;
			}
			Key privateKey = readKey(source, alias, sourcePasswords);
			Certificate[] chain = source.getCertificateChain(alias);
			target.setKeyEntry(alias, privateKey, password, chain);
		}
		if (target.size() == 0) {
			throw new IllegalStateException("the bundle's key store has no usable key"
					+ ((key.getAlias() != null) ? " with alias '" + key.getAlias() + "'" : ""));
		}
		return target;
	}

	private static Key readKey(KeyStore source, String alias, List<char @Nullable []> passwords)
			throws GeneralSecurityException {
		GeneralSecurityException failure = null;
		for (char[] candidate : passwords) {
			try {
				Key key = source.getKey(alias, candidate);
				if (key != null) {
					return key;
				}
			}
			catch (GeneralSecurityException ex) {
				failure = ex;
			}
		}
		throw (failure != null) ? failure : new GeneralSecurityException("no key for alias '" + alias + "'");
	}

	private static KeyStore copyCertificates(KeyStore source) throws IOException, GeneralSecurityException {
		KeyStore target = emptyPkcs12();
		for (String alias : Collections.list(source.aliases())) {
			Certificate certificate = source.getCertificate(alias);
			if (certificate != null) {
				target.setCertificateEntry(alias, certificate);
			}
		}
		return target;
	}

	private static KeyStore emptyPkcs12() throws IOException, GeneralSecurityException {
		KeyStore store = KeyStore.getInstance("PKCS12");
		store.load(null, null);
		return store;
	}

	private static Path store(String kind, KeyStore store, String password)
			throws IOException, GeneralSecurityException {
		Path file = FileSystems.getDefault().supportedFileAttributeViews().contains("posix")
				? Files.createTempFile("distlock-zookeeper-" + kind + "-", ".p12",
						PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))
				: Files.createTempFile("distlock-zookeeper-" + kind + "-", ".p12");
		file.toFile().deleteOnExit();
		try (OutputStream out = Files.newOutputStream(file)) {
			store.store(out, password.toCharArray());
		}
		catch (IOException | GeneralSecurityException | RuntimeException ex) {
			delete(file);
			throw ex;
		}
		return file;
	}

	/** Password of both files. */
	String password() {
		return this.password;
	}

	/** The key store file, or {@code null} when the bundle has no key store. */
	@Nullable Path keyStore() {
		return this.keyStore;
	}

	/** The trust store file, or {@code null} when the bundle has no trust store. */
	@Nullable Path trustStore() {
		return this.trustStore;
	}

	@Override
	public void close() {
		delete(this.keyStore);
		delete(this.trustStore);
	}

	private static void delete(@Nullable Path file) {
		if (file != null) {
			try {
				Files.deleteIfExists(file);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
	}

	@Override
	public String toString() {
		return "SslBundleStoreFiles[keyStore=" + this.keyStore + ", trustStore=" + this.trustStore + "]";
	}

}
