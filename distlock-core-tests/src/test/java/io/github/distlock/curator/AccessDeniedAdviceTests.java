package io.github.distlock.curator;

import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine's own advice for a failure that ZooKeeper's access control refused names
 * what to check, and no property: the engine does not know how its client was configured.
 * {@code RefusedParentsTests} checks it in the message of a real refusal.
 */
class AccessDeniedAdviceTests {

	@ParameterizedTest
	@EnumSource(value = KeeperException.Code.class, names = { "AUTHFAILED", "NOAUTH", "INVALIDACL" })
	void defaultAdviceNamesTheCredentialsAndNoProperty(KeeperException.Code refusal) {
		assertThat(AccessDeniedAdvice.DEFAULT.advice(refusal)).startsWith("Check ")
			.contains("credentials")
			.doesNotContain("distlock.");
	}

	@ParameterizedTest
	@EnumSource(value = KeeperException.Code.class, names = { "NOAUTH", "INVALIDACL" })
	void defaultAdviceOfARefusedNodeNamesTheAcls(KeeperException.Code refusal) {
		assertThat(AccessDeniedAdvice.DEFAULT.advice(refusal)).contains("ACLs");
	}

}
