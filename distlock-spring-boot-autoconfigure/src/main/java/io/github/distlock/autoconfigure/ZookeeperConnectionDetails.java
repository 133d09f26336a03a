package io.github.distlock.autoconfigure;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;
import org.springframework.boot.ssl.SslBundle;

/**
 * Details of the connection to a ZooKeeper ensemble. The default implementation reads
 * {@code distlock.zookeeper.*}; the embedded server and Testcontainers provide their own.
 */
public interface ZookeeperConnectionDetails extends ConnectionDetails {

	/**
	 * Connect string of the ensemble: comma-separated {@code host:port} pairs.
	 * @return the connect string
	 */
	String getConnectString();

	/**
	 * Authentication the client sends with every connection.
	 * @return the authentication, or {@code null} for none
	 */
	default @Nullable Authentication getAuthentication() {
		return null;
	}

	/**
	 * SSL bundle to connect over TLS with, to the ensemble's secure client port.
	 * @return the bundle, or {@code null} to connect in plain text
	 */
	default @Nullable SslBundle getSslBundle() {
		return null;
	}

	/**
	 * Authentication of a ZooKeeper session: a scheme naming a server-side authentication
	 * provider and the data that provider checks. Its {@code toString} does not show the
	 * data.
	 *
	 * @param scheme the scheme, such as {@code digest}
	 * @param data the authentication data, such as {@code user:password} for
	 * {@code digest}
	 */
	record Authentication(String scheme, String data) {

		@Override
		public String toString() {
			return "Authentication[scheme=" + this.scheme + ", data=******]";
		}

	}

}
