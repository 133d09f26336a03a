/**
 * Security of the auto-configured ZooKeeper client: its authentication, the ACLs of the
 * nodes distlock creates ({@code distlock.zookeeper.acl.*}), TLS from an SSL bundle and
 * SASL, all applied to the client's own configuration by
 * {@link io.github.distlock.autoconfigure.security.ZookeeperSecurityConfigurer}, the one
 * public entry point, which the main auto-configuration builds the client with.
 */
@NullMarked
package io.github.distlock.autoconfigure.security;

import org.jspecify.annotations.NullMarked;
