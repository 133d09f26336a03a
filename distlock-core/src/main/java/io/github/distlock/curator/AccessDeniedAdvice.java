package io.github.distlock.curator;

import org.apache.zookeeper.KeeperException;

/**
 * What the {@link io.github.distlock.core.LockAcquisitionException} of an acquisition
 * refused by ZooKeeper's access control advises checking: the server rejected the
 * client's credentials ({@link KeeperException.Code#AUTHFAILED AUTHFAILED}), the ACL of a
 * node does not grant the client's identity ({@link KeeperException.Code#NOAUTH NOAUTH}),
 * or the server refused the ACL of a new node ({@link KeeperException.Code#INVALIDACL
 * INVALIDACL}).
 * <p>
 * The engine does not know how its client was configured, so its {@link #DEFAULT} advice
 * names no setting. Whoever builds the client from settings of its own (distlock's
 * auto-configuration does) gives {@link CuratorLocks} advice that names them.
 */
@FunctionalInterface
public interface AccessDeniedAdvice {

	/**
	 * Advice naming the client's credentials and the ACLs of the lock nodes, and no
	 * setting.
	 */
	AccessDeniedAdvice DEFAULT = (refusal) -> (refusal == KeeperException.Code.AUTHFAILED)
			? "Check the credentials the ZooKeeper client authenticates with"
			: "Check the ZooKeeper client's credentials (they must be those of the identity that created the "
					+ "nodes) and the ACLs of the lock nodes";

	/**
	 * The advice: a sentence that ends the exception's message.
	 * @param refusal ZooKeeper's answer: {@code AUTHFAILED}, {@code NOAUTH} or
	 * {@code INVALIDACL}
	 * @return what to check
	 */
	String advice(KeeperException.Code refusal);

}
