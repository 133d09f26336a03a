package io.github.distlock.autoconfigure.security;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

import io.netty.util.Version;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.util.ClassUtils;

import io.github.distlock.autoconfigure.DistlockAutoConfiguration;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockTimeoutException;
import io.github.distlock.core.Locks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * TLS to a ZooKeeper server's secure client port, configured from Spring Boot SSL
 * bundles, with certificates made for the test.
 */
@ExtendWith(OutputCaptureExtension.class)
class ZookeeperTlsTests {

	@TempDir
	static Path directory;

	private static TestCertificates certificates;

	private static TestingServer server;

	private static int securePort;

	private static Properties systemProperties;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class, DistlockAutoConfiguration.class))
		.withPropertyValues("distlock.zookeeper.session-timeout=5s", "distlock.zookeeper.connection-timeout=3s",
				"spring.ssl.bundle.jks.zookeeper.truststore.location=file:" + certificates.caTrustStore(),
				"spring.ssl.bundle.jks.zookeeper.truststore.password=" + TestCertificates.PASSWORD,
				"spring.ssl.bundle.jks.zookeeper.truststore.type=PKCS12",
				"spring.ssl.bundle.jks.other-ca.truststore.location=file:" + certificates.otherCaTrustStore(),
				"spring.ssl.bundle.jks.other-ca.truststore.password=" + TestCertificates.PASSWORD,
				"spring.ssl.bundle.jks.other-ca.truststore.type=PKCS12");

	@BeforeAll
	static void startServer() throws Exception {
		certificates = TestCertificates.create(directory);
		// ZooKeeper's server turns unknown configuration keys (ssl.*,
		// serverCnxnFactory) into JVM-wide zookeeper.* system properties: put them back
		// afterwards, and let the clients here prove they do not depend on them.
		systemProperties = (Properties) System.getProperties().clone();
		securePort = InstanceSpec.getRandomPort();
		Map<String, Object> serverProperties = new HashMap<>();
		serverProperties.put("secureClientPort", String.valueOf(securePort));
		serverProperties.put("serverCnxnFactory", "org.apache.zookeeper.server.NettyServerCnxnFactory");
		serverProperties.put("ssl.keyStore.location", certificates.serverKeyStore().toString());
		serverProperties.put("ssl.keyStore.password", TestCertificates.PASSWORD);
		serverProperties.put("ssl.keyStore.type", "PKCS12");
		serverProperties.put("ssl.trustStore.location", certificates.caTrustStore().toString());
		serverProperties.put("ssl.trustStore.password", TestCertificates.PASSWORD);
		serverProperties.put("ssl.trustStore.type", "PKCS12");
		serverProperties.put("ssl.clientAuth", "none");
		server = new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, -1, -1, serverProperties), true);
	}

	@AfterAll
	static void stopServer() throws Exception {
		try {
			server.close();
		}
		finally {
			System.setProperties(systemProperties);
		}
	}

	@Test
	void applicationLocksOverTls() {
		// On the JDK's TLS: the build, like the starter, leaves out Netty's
		// OpenSSL natives.
		assertThat(ClassUtils.isPresent("io.netty.internal.tcnative.SSL", null)).isFalse();
		this.contextRunner
			.withPropertyValues("distlock.zookeeper.connect-string=127.0.0.1:" + securePort,
					"distlock.zookeeper.ssl.bundle=zookeeper")
			.run((context) -> {
				try (LockHandle handle = context.getBean(Locks.class).mutex("tls").acquire(Duration.ofSeconds(20))) {
					assertThat(handle.isHeld()).isTrue();
				}
				CuratorFramework client = context.getBean(CuratorFramework.class);
				assertThat(client.getZookeeperClient()
					.getZooKeeper()
					.getClientConfig()
					.getBoolean("zookeeper.client.secure")).isTrue();
			});
	}

	@Test
	void clientTrustingAnotherCaIsRefused(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("distlock.zookeeper.connect-string=127.0.0.1:" + securePort,
					"distlock.zookeeper.ssl.bundle=other-ca")
			.run((context) -> {
				assertThatExceptionOfType(LockTimeoutException.class)
					.isThrownBy(() -> context.getBean(Locks.class).mutex("tls").acquire(Duration.ofSeconds(3)))
					.withMessageContaining("is not connected");
				assertThat(output).contains("SSLHandshakeException").contains("PKIX path");
			});
	}

	@Test
	void certificateForAnotherHostIsRefusedWhenHostnameVerificationIsOn(CapturedOutput output) {
		// 127.0.0.2 reaches the same server on Linux's loopback, but its certificate is
		// for localhost and 127.0.0.1 only.
		this.contextRunner
			.withPropertyValues("distlock.zookeeper.connect-string=127.0.0.2:" + securePort,
					"distlock.zookeeper.ssl.bundle=zookeeper")
			.run((context) -> {
				assertThatExceptionOfType(LockTimeoutException.class)
					.isThrownBy(() -> context.getBean(Locks.class).mutex("tls").acquire(Duration.ofSeconds(3)))
					.withMessageContaining("is not connected");
				assertThat(output).contains("SSLHandshakeException").contains("127.0.0.2");
			});
	}

	@Test
	void hostnameVerificationOffReachesZooKeeperAndNetty42IsWarnedAbout(CapturedOutput output) {
		// ZooKeeper 3.9 honours zookeeper.ssl.hostnameVerification=false, but Netty 4.2
		// (Spring Boot 4's version) verifies host names in every client context itself.
		this.contextRunner
			.withPropertyValues("distlock.zookeeper.connect-string=127.0.0.2:" + securePort,
					"distlock.zookeeper.ssl.bundle=zookeeper", "distlock.zookeeper.ssl.hostname-verification=false")
			.run((context) -> {
				CuratorFramework client = context.getBean(CuratorFramework.class);
				assertThat(client.getZookeeperClient()
					.getZooKeeper()
					.getClientConfig()
					.getBoolean("zookeeper.ssl.hostnameVerification", true)).isFalse();
				assertThat(Version.identify().get("netty-handler").artifactVersion()).startsWith("4.2.");
				assertThat(output).contains("hostname-verification=false has no effect: Netty 4.2");
			});
	}

	@Test
	void storeFilesAreDeletedWhenTheApplicationStops() {
		Path[] stores = new Path[1];
		this.contextRunner
			.withPropertyValues("distlock.zookeeper.connect-string=127.0.0.1:" + securePort,
					"distlock.zookeeper.ssl.bundle=zookeeper")
			.run((context) -> {
				CuratorFramework client = context.getBean(CuratorFramework.class);
				stores[0] = Path.of(client.getZookeeperClient()
					.getZooKeeper()
					.getClientConfig()
					.getProperty("zookeeper.ssl.trustStore.location"));
				assertThat(stores[0]).exists().isNotEqualTo(certificates.caTrustStore());
			});
		assertThat(stores[0]).doesNotExist();
	}

}
