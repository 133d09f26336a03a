package io.github.distlock.autoconfigure;

/**
 * {@link ZookeeperConnectionDetails} read from {@link DistlockProperties}.
 */
class PropertiesZookeeperConnectionDetails implements ZookeeperConnectionDetails {

	private final DistlockProperties properties;

	PropertiesZookeeperConnectionDetails(DistlockProperties properties) {
		this.properties = properties;
	}

	@Override
	public String getConnectString() {
		return this.properties.getZookeeper().getConnectString();
	}

}
