package io.github.distlock.autoconfigure.security;

import java.nio.file.Path;
import java.time.Duration;

import io.netty.util.Version;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.util.ClassUtils;

import io.github.distlock.autoconfigure.DistlockAutoConfiguration;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockTimeoutException;
import io.github.distlock.core.Locks;
import io.github.distlock.testsupport.DistlockContextRunners;
import io.github.distlock.testsupport.ZooKeeperExtension;

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

	// ZooKeeper's server turns its ssl.* keys into JVM-wide zookeeper.* system
	// properties; the extension puts them back when it stops the server, and the clients
	// here prove they do not depend on them.
	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension().withTls(ZookeeperTlsTests::createCertificates);

	// Each test names the secure port in its connect string.
	private final ApplicationContextRunner contextRunner = DistlockContextRunners
		.applicationContextRunner(zookeeper, SslAutoConfiguration.class, DistlockAutoConfiguration.class)
		.withPropertyValues("spring.ssl.bundle.jks.zookeeper.truststore.location=file:" + certificates.caTrustStore(),
				"spring.ssl.bundle.jks.zookeeper.truststore.password=" + TestCertificates.PASSWORD,
				"spring.ssl.bundle.jks.zookeeper.truststore.type=PKCS12",
				"spring.ssl.bundle.jks.other-ca.truststore.location=file:" + certificates.otherCaTrustStore(),
				"spring.ssl.bundle.jks.other-ca.truststore.password=" + TestCertificates.PASSWORD,
				"spring.ssl.bundle.jks.other-ca.truststore.type=PKCS12");

	private static ZooKeeperExtension.TlsStores createCertificates() throws Exception {
		certificates = TestCertificates.create(directory);
		return new ZooKeeperExtension.TlsStores(certificates.serverKeyStore(), certificates.caTrustStore(),
				TestCertificates.PASSWORD);
	}

	@Test
	void applicationLocksOverTls() {
		// On the JDK's TLS: the build, like the starter, leaves out Netty's
		// OpenSSL natives.
		assertThat(ClassUtils.isPresent("io.netty.internal.tcnative.SSL", null)).isFalse();
		this.contextRunner
			.withPropertyValues("distlock.zookeeper.connect-string=127.0.0.1:" + zookeeper.securePort(),
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
			.withPropertyValues("distlock.zookeeper.connect-string=127.0.0.1:" + zookeeper.securePort(),
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
			.withPropertyValues("distlock.zookeeper.connect-string=127.0.0.2:" + zookeeper.securePort(),
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
			.withPropertyValues("distlock.zookeeper.connect-string=127.0.0.2:" + zookeeper.securePort(),
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
			.withPropertyValues("distlock.zookeeper.connect-string=127.0.0.1:" + zookeeper.securePort(),
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
