package io.github.distlock.autoconfigure;

import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;

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

}
