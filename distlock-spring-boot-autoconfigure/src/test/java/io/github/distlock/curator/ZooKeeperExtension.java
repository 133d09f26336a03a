package io.github.distlock.curator;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import io.github.distlock.core.ConnectionLossPolicy;

/**
 * A real ZooKeeper server for a test class, and nodes (clients with sessions of their
 * own) that are closed after each test. Registered on a static field, the server lives
 * for the class; on an instance field, each test gets a fresh server it may stop and
 * restart.
 */
final class ZooKeeperExtension implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {

	private TestingServer server;

	private ZooKeeperClients clients = new ZooKeeperClients();

	private boolean perClass;

	@Override
	public void beforeAll(ExtensionContext context) throws Exception {
		this.perClass = true;
		this.server = new TestingServer(true);
	}

	@Override
	public void beforeEach(ExtensionContext context) throws Exception {
		if (!this.perClass) {
			this.server = new TestingServer(true);
		}
	}

	@Override
	public void afterEach(ExtensionContext context) throws Exception {
		this.clients.close();
		this.clients = new ZooKeeperClients();
		if (!this.perClass) {
			this.server.close();
		}
	}

	@Override
	public void afterAll(ExtensionContext context) throws Exception {
		this.server.close();
	}

	TestingServer server() {
		return this.server;
	}

	String connectString() {
		return this.server.getConnectString();
	}

	/** A new node: a client with its own session, and the locks on it. */
	CuratorLocks newNode() {
		return this.clients.locks(connectString());
	}

	/** A new node with the given connection-loss policy. */
	CuratorLocks newNode(ConnectionLossPolicy policy) {
		CuratorFramework client = this.clients.start(connectString());
		return this.clients.register(new CuratorLocks(client, java.time.Duration.ofSeconds(5), "test", policy));
	}

	/** A new node connected to another connect string. */
	CuratorLocks newNode(String connectString) {
		return this.clients.locks(connectString);
	}

}
