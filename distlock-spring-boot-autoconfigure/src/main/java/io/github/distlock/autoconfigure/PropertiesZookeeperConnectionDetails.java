package io.github.distlock.autoconfigure;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.util.StringUtils;

/**
 * {@link ZookeeperConnectionDetails} read from {@link DistlockProperties}.
 */
class PropertiesZookeeperConnectionDetails implements ZookeeperConnectionDetails {

	private final DistlockProperties properties;

	private final @Nullable SslBundles sslBundles;

	PropertiesZookeeperConnectionDetails(DistlockProperties properties) {
		this(properties, null);
	}

	PropertiesZookeeperConnectionDetails(DistlockProperties properties, @Nullable SslBundles sslBundles) {
		this.properties = properties;
		this.sslBundles = sslBundles;
	}

	@Override
	public String getConnectString() {
		return this.properties.getZookeeper().getConnectString();
	}

	@Override
	public @Nullable Authentication getAuthentication() {
		DistlockProperties.Auth auth = this.properties.getZookeeper().getAuth();
		String password = auth.getPassword();
		String username = auth.getUsername();
		if (!StringUtils.hasLength(password)) {
			if (StringUtils.hasLength(username)) {
				throw new InvalidConfigurationPropertyValueException("distlock.zookeeper.auth.password", "",
						"a password is needed with distlock.zookeeper.auth.username");
			}
			return null;
		}
		String data = StringUtils.hasLength(username) ? username + ":" + password : password;
		return new Authentication(auth.getScheme(), data);
	}

	@Override
	public @Nullable SslBundle getSslBundle() {
		DistlockProperties.Ssl ssl = this.properties.getZookeeper().getSsl();
		String bundle = ssl.getBundle();
		if (StringUtils.hasLength(bundle)) {
			if (this.sslBundles == null) {
				throw new InvalidConfigurationPropertyValueException("distlock.zookeeper.ssl.bundle", bundle,
						"there is no SslBundles bean to look the bundle up in");
			}
			return this.sslBundles.getBundle(bundle);
		}
		return ssl.isEnabled() ? SslBundle.of(null) : null;
	}

}
