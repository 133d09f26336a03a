package io.github.distlock.autoconfigure;

import org.apache.zookeeper.KeeperException;

import io.github.distlock.curator.AccessDeniedAdvice;

/**
 * The advice of a lock acquisition that ZooKeeper's access control refused, for the
 * auto-configured locks: it names the properties the client's credentials
 * ({@code distlock.zookeeper.auth.*}) and the ACLs of its nodes
 * ({@code distlock.zookeeper.acl.*}) come from, which the engine does not know.
 */
final class PropertiesAccessDeniedAdvice implements AccessDeniedAdvice {

	@Override
	public String advice(KeeperException.Code refusal) {
		if (refusal == KeeperException.Code.AUTHFAILED) {
			return "Check distlock.zookeeper.auth.*";
		}
		return "Check distlock.zookeeper.auth.* (the credentials must be those of the identity that created the "
				+ "nodes) and distlock.zookeeper.acl.*";
	}

}
