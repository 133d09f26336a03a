package io.github.distlock.autoconfigure;

import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The auto-configured locks' advice for a failure that ZooKeeper's access control refused
 * names the properties the credentials and ACLs come from.
 * {@code ZookeeperAuthenticationTests} checks it in the message of a real refusal.
 */
class PropertiesAccessDeniedAdviceTests {

	private final PropertiesAccessDeniedAdvice advice = new PropertiesAccessDeniedAdvice();

	@Test
	void rejectedCredentialsNameTheAuthProperties() {
		assertThat(this.advice.advice(KeeperException.Code.AUTHFAILED)).isEqualTo("Check distlock.zookeeper.auth.*");
	}

	@Test
	void refusedNodesNameTheAuthAndAclProperties() {
		for (KeeperException.Code refusal : new KeeperException.Code[] { KeeperException.Code.NOAUTH,
				KeeperException.Code.INVALIDACL }) {
			assertThat(this.advice.advice(refusal)).as(refusal.name())
				.isEqualTo("Check distlock.zookeeper.auth.* (the credentials must be those of the identity that "
						+ "created the nodes) and distlock.zookeeper.acl.*");
		}
	}

}
