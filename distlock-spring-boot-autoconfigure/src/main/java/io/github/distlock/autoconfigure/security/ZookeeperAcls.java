package io.github.distlock.autoconfigure.security;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.apache.curator.framework.api.ACLProvider;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

import io.github.distlock.autoconfigure.DistlockProperties.AclMode;
import io.github.distlock.autoconfigure.DistlockProperties;

/**
 * The ACLs distlock gives the nodes it creates, from {@code distlock.zookeeper.acl.*}.
 * Curator asks the client's {@link ACLProvider} for every node it creates, including the
 * namespace node and the parents that {@code creatingParentContainersIfNeeded} creates,
 * so one fixed list covers the whole tree.
 */
final class ZookeeperAcls {

	static final String MODE_PROPERTY = "distlock.zookeeper.acl.mode";

	static final String ENTRIES_PROPERTY = "distlock.zookeeper.acl.entries";

	private ZookeeperAcls() {
	}

	/**
	 * Return the ACLs to create nodes with, or {@code null} to keep Curator's default
	 * (open to all).
	 * @param acl the ACL properties
	 * @param authenticated whether the client's session carries an authenticated identity
	 * (digest credentials, SASL or a client certificate)
	 * @param credentialsConfigured whether digest-style credentials are configured
	 * @return the ACL list or {@code null}
	 * @throws InvalidConfigurationPropertyValueException if the settings cannot work
	 */
	static @Nullable List<ACL> resolve(DistlockProperties.Acl acl, boolean authenticated,
			boolean credentialsConfigured) {
		AclMode mode = acl.getMode();
		if (!acl.getEntries().isEmpty() && mode != AclMode.CUSTOM) {
			throw new InvalidConfigurationPropertyValueException(ENTRIES_PROPERTY, String.join(",", acl.getEntries()),
					"entries are used only with " + MODE_PROPERTY + "=custom (it is " + name(mode) + ")");
		}
		return switch (mode) {
			case AUTO -> credentialsConfigured ? ZooDefs.Ids.CREATOR_ALL_ACL : null;
			case OPEN -> null;
			case CREATOR_ONLY -> {
				if (!authenticated) {
					throw new InvalidConfigurationPropertyValueException(MODE_PROPERTY, name(mode),
							"creator-only ACLs need an authenticated client, and none is configured: set "
									+ "distlock.zookeeper.auth.username and distlock.zookeeper.auth.password "
									+ "(or SASL, or a client certificate in distlock.zookeeper.ssl.bundle)");
				}
				yield ZooDefs.Ids.CREATOR_ALL_ACL;
			}
			case CUSTOM -> {
				if (acl.getEntries().isEmpty()) {
					throw new InvalidConfigurationPropertyValueException(MODE_PROPERTY, name(mode),
							"list the ACL entries in " + ENTRIES_PROPERTY + ", such as 'auth::crwda'");
				}
				yield parse(acl.getEntries());
			}
		};
	}

	/**
	 * Parse entries of the form {@code scheme:id:permissions}. The id may itself contain
	 * colons (a digest id is {@code user:hash}); the permissions are letters among
	 * {@code crwda}.
	 * @param entries the entries
	 * @return the ACLs
	 */
	static List<ACL> parse(List<String> entries) {
		List<ACL> acls = new ArrayList<>(entries.size());
		for (String entry : entries) {
			int first = entry.indexOf(':');
			int last = entry.lastIndexOf(':');
			if (first <= 0 || first == last) {
				throw invalidEntry(entry, "it is not of the form scheme:id:permissions");
			}
			String scheme = entry.substring(0, first);
			String id = entry.substring(first + 1, last);
			acls.add(new ACL(permissions(entry, entry.substring(last + 1)), new Id(scheme, id)));
		}
		// Not List.copyOf: ZooKeeper checks the list with contains(null), which an
		// immutable list rejects.
		return Collections.unmodifiableList(acls);
	}

	private static int permissions(String entry, String letters) {
		if (letters.isEmpty()) {
			throw invalidEntry(entry, "it grants no permission; use letters among 'crwda'");
		}
		int permissions = 0;
		for (char letter : letters.toCharArray()) {
			permissions |= switch (letter) {
				case 'c' -> ZooDefs.Perms.CREATE;
				case 'r' -> ZooDefs.Perms.READ;
				case 'w' -> ZooDefs.Perms.WRITE;
				case 'd' -> ZooDefs.Perms.DELETE;
				case 'a' -> ZooDefs.Perms.ADMIN;
				default -> throw invalidEntry(entry, "'" + letter
						+ "' is not a permission; use letters among 'crwda' (create, read, " + "write, delete, admin)");
			};
		}
		return permissions;
	}

	private static InvalidConfigurationPropertyValueException invalidEntry(String entry, String reason) {
		return new InvalidConfigurationPropertyValueException(ENTRIES_PROPERTY, entry, reason);
	}

	private static String name(AclMode mode) {
		return mode.name().toLowerCase().replace('_', '-');
	}

	/**
	 * An {@link ACLProvider} giving every path the same ACLs.
	 */
	record FixedAclProvider(List<ACL> acl) implements ACLProvider {

		@Override
		public List<ACL> getDefaultAcl() {
			return this.acl;
		}

		@Override
		public List<ACL> getAclForPath(String path) {
			return this.acl;
		}

	}

}
