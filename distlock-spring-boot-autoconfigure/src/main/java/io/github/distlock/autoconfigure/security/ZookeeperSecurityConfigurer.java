package io.github.distlock.autoconfigure.security;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ClientX509Util;
import org.apache.zookeeper.data.ACL;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslOptions;
import org.springframework.util.StringUtils;

import io.github.distlock.autoconfigure.DistlockProperties;
import io.github.distlock.autoconfigure.ZookeeperConnectionDetails;
import io.github.distlock.autoconfigure.ZookeeperConnectionDetails.Authentication;

/**
 * Applies authentication, ACLs, TLS and SASL settings to the
 * {@link CuratorFrameworkFactory.Builder} of the auto-configured client. Everything goes
 * into that client's own {@link ZKClientConfig}: no JVM-wide system property is set.
 * <p>
 * Closing it deletes the temporary store files written for TLS, so it must outlive the
 * client.
 * <p>
 * Public only for {@link io.github.distlock.autoconfigure.DistlockAutoConfiguration},
 * which builds the client with it; not meant for applications.
 */
public final class ZookeeperSecurityConfigurer implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(ZookeeperSecurityConfigurer.class);

	private static final String FIPS_MODE = "zookeeper.fips-mode";

	/** ZooKeeper's TLS-capable client socket, by name: Netty is needed only with TLS. */
	private static final String NETTY_CLIENT_SOCKET = "org.apache.zookeeper.ClientCnxnSocketNetty";

	private final @Nullable Authentication authentication;

	private final @Nullable List<ACL> acl;

	private final @Nullable SslBundleStoreFiles storeFiles;

	private final @Nullable ZKClientConfig clientConfig;

	/**
	 * Resolve the settings, checking them, and write the TLS store files if a bundle is
	 * configured.
	 * @param properties the {@code distlock.zookeeper.*} properties
	 * @param connectionDetails the connection details, for the authentication and the SSL
	 * bundle
	 */
	public ZookeeperSecurityConfigurer(DistlockProperties.Zookeeper properties,
			ZookeeperConnectionDetails connectionDetails) {
		this.authentication = connectionDetails.getAuthentication();
		SslBundle sslBundle = connectionDetails.getSslBundle();
		DistlockProperties.Sasl sasl = properties.getSasl();
		boolean saslConfigured = Boolean.TRUE.equals(sasl.getEnabled())
				|| StringUtils.hasLength(sasl.getLoginContext());
		boolean clientCertificate = sslBundle != null && sslBundle.getStores().getKeyStore() != null;
		this.acl = ZookeeperAcls.resolve(properties.getAcl(),
				this.authentication != null || saslConfigured || clientCertificate, this.authentication != null);
		this.storeFiles = (sslBundle != null) ? SslBundleStoreFiles.write(sslBundle) : null;
		this.clientConfig = clientConfig(sasl, sslBundle, this.storeFiles,
				properties.getSsl().isHostnameVerification());
	}

	/**
	 * Apply the settings to the builder.
	 * @param builder the builder of the client
	 */
	public void configure(CuratorFrameworkFactory.Builder builder) {
		if (this.authentication != null) {
			builder.authorization(this.authentication.scheme(),
					this.authentication.data().getBytes(StandardCharsets.UTF_8));
		}
		if (this.acl != null) {
			builder.aclProvider(new ZookeeperAcls.FixedAclProvider(this.acl));
		}
		if (this.clientConfig != null) {
			builder.zkClientConfig(this.clientConfig);
		}
	}

	/** The ACLs nodes are created with, or {@code null} for Curator's default. */
	@Nullable List<ACL> acl() {
		return this.acl;
	}

	/** The client configuration, or {@code null} when nothing needs one. */
	@Nullable ZKClientConfig clientConfig() {
		return this.clientConfig;
	}

	private static @Nullable ZKClientConfig clientConfig(DistlockProperties.Sasl sasl, @Nullable SslBundle sslBundle,
			@Nullable SslBundleStoreFiles storeFiles, boolean hostnameVerification) {
		boolean saslSettings = sasl.getEnabled() != null || sasl.getLoginContext() != null
				|| sasl.getServerPrincipal() != null;
		if (sslBundle == null && !saslSettings) {
			return null;
		}
		// Starts from what ZooKeeper's own default client configuration would hold (it
		// reads the usual zookeeper.* system properties), then overrides.
		OverridingClientConfig config = new OverridingClientConfig();
		if (sasl.getEnabled() != null) {
			config.override(ZKClientConfig.ENABLE_CLIENT_SASL_KEY, sasl.getEnabled().toString());
		}
		if (sasl.getLoginContext() != null) {
			config.override(ZKClientConfig.LOGIN_CONTEXT_NAME_KEY, sasl.getLoginContext());
		}
		if (sasl.getServerPrincipal() != null) {
			config.override(ZKClientConfig.ZOOKEEPER_SERVER_PRINCIPAL, sasl.getServerPrincipal());
		}
		if (sslBundle != null && storeFiles != null) {
			configureTls(config, sslBundle, storeFiles, hostnameVerification);
		}
		return config;
	}

	private static void configureTls(OverridingClientConfig config, SslBundle sslBundle, SslBundleStoreFiles storeFiles,
			boolean hostnameVerification) {
		if (!hostnameVerification && nettyVerifiesHostNames()) {
			logger.warn("distlock.zookeeper.ssl.hostname-verification=false has no effect: Netty " + nettyVersion()
					+ " checks the server's host name itself, ZooKeeper's setting cannot turn "
					+ "that off. Give the servers certificates for the names in the connect string.");
		}
		config.override(ZKClientConfig.SECURE_CLIENT, "true");
		config.override(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET, NETTY_CLIENT_SOCKET);
		try (ClientX509Util x509 = new ClientX509Util()) {
			// The bundle is the whole truth: store settings from system properties are
			// replaced, an empty location meaning "none".
			setStore(config, storeFiles.keyStore(), storeFiles.password(), x509.getSslKeystoreLocationProperty(),
					x509.getSslKeystorePasswdProperty(), x509.getSslKeystoreTypeProperty());
			setStore(config, storeFiles.trustStore(), storeFiles.password(), x509.getSslTruststoreLocationProperty(),
					x509.getSslTruststorePasswdProperty(), x509.getSslTruststoreTypeProperty());
			config.override(x509.getSslHostnameVerificationEnabledProperty(), Boolean.toString(hostnameVerification));
			// ZooKeeper's FIPS mode (its default) checks the host name with the JDK's
			// standard endpoint identification against the host of the connect
			// string, without ZooKeeper's reverse-DNS fallback, also with the JDK's
			// default trust.
			config.override(FIPS_MODE, "true");
			// The bundle's default "TLS" names no protocol version; ZooKeeper then keeps
			// its own default (TLSv1.3 where available).
			if (!SslBundle.DEFAULT_PROTOCOL.equals(sslBundle.getProtocol())) {
				config.override(x509.getSslProtocolProperty(), sslBundle.getProtocol());
			}
			SslOptions options = sslBundle.getOptions();
			if (options.getEnabledProtocols() != null) {
				config.override(x509.getSslEnabledProtocolsProperty(), String.join(",", options.getEnabledProtocols()));
			}
			if (options.getCiphers() != null) {
				config.override(x509.getSslCipherSuitesProperty(), String.join(",", options.getCiphers()));
			}
		}
	}

	/** Netty 4.2 and later verify host names in client TLS contexts by default. */
	static boolean nettyVerifiesHostNames() {
		String version = NettyVersion.get();
		return !version.startsWith("4.0.") && !version.startsWith("4.1.");
	}

	private static String nettyVersion() {
		return NettyVersion.get();
	}

	/** Kept apart so that Netty is loaded only when TLS is configured. */
	private static final class NettyVersion {

		static String get() {
			io.netty.util.Version handler = io.netty.util.Version.identify(NettyVersion.class.getClassLoader())
				.get("netty-handler");
			return (handler != null) ? handler.artifactVersion() : "unknown";
		}

	}

	private static void setStore(OverridingClientConfig config, @Nullable Path file, String password,
			String locationProperty, String passwordProperty, String typeProperty) {
		config.override(locationProperty, (file != null) ? file.toString() : "");
		config.override(passwordProperty, (file != null) ? password : "");
		config.override(typeProperty, "PKCS12");
	}

	@Override
	public void close() {
		if (this.storeFiles != null) {
			this.storeFiles.close();
		}
	}

	/**
	 * A {@link ZKClientConfig} whose values set by distlock take precedence. ZooKeeper's
	 * own {@code setProperty} logs the old and the new value at DEBUG when it replaces
	 * one (a store password from a system property, say); overriding on read logs
	 * nothing.
	 */
	static final class OverridingClientConfig extends ZKClientConfig {

		private final Map<String, String> overrides = new ConcurrentHashMap<>();

		void override(String key, String value) {
			this.overrides.put(key, value);
		}

		@Override
		@SuppressWarnings("ConstantValue")
		public @Nullable String getProperty(String key) {
			String value = (this.overrides != null) ? this.overrides.get(key) : null;
			return (value != null) ? value : super.getProperty(key);
		}

		@Override
		@SuppressWarnings("ConstantValue")
		public @Nullable String getProperty(String key, @Nullable String defaultValue) {
			String value = (this.overrides != null) ? this.overrides.get(key) : null;
			return (value != null) ? value : super.getProperty(key, defaultValue);
		}

		@Override
		@SuppressWarnings("ConstantValue")
		public void setProperty(String key, String value) {
			// Called by ZooKeeper's constructor, before this class's fields exist.
			if (this.overrides != null) {
				this.overrides.remove(key);
			}
			super.setProperty(key, value);
		}

	}

	@Override
	public String toString() {
		return "ZookeeperSecurityConfigurer[authentication=" + this.authentication + ", acl=" + this.acl + "]";
	}

}
