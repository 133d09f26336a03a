package io.github.distlock.curator;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.BackgroundCallback;
import org.apache.curator.framework.api.CuratorEventType;
import org.apache.zookeeper.KeeperException;

/**
 * Passes a client's requests through, and holds back the answers of queue reads that
 * failed for the lost connection while told to, of queue reads or creates that succeeded,
 * until {@link #deliverHeld()}; runs a hook with the path of a node's stat read before it
 * is sent.
 */
final class LateAnswers {

	final AtomicInteger reads = new AtomicInteger();

	final AtomicInteger watchesSet = new AtomicInteger();

	final List<Runnable> held = new CopyOnWriteArrayList<>();

	volatile boolean holdLosses;

	volatile boolean holdCreates;

	volatile boolean holdReads;

	volatile Consumer<String> beforeExistsCheck = (path) -> {
	};

	CuratorFramework wrap(CuratorFramework client) {
		return (CuratorFramework) wrap(client, List.of(CuratorFramework.class), null);
	}

	void deliverHeld() {
		this.held.forEach(Runnable::run);
		this.held.clear();
	}

	private Object wrap(Object target, List<Class<?>> types, String request) {
		InvocationHandler handler = (proxy, method, args) -> invoke(target, request, method, args);
		return Proxy.newProxyInstance(CuratorFramework.class.getClassLoader(), types.toArray(Class<?>[]::new), handler);
	}

	private static List<Class<?>> builderInterfaces(Class<?> type) {
		Set<Class<?>> found = new LinkedHashSet<>();
		for (Class<?> c = type; c != null; c = c.getSuperclass()) {
			collect(c, found);
		}
		return List.copyOf(found);
	}

	private static void collect(Class<?> type, Set<Class<?>> found) {
		for (Class<?> implemented : type.getInterfaces()) {
			if (implemented.getPackageName().equals("org.apache.curator.framework.api")) {
				found.add(implemented);
			}
			collect(implemented, found);
		}
	}

	private Object invoke(Object target, String request, Method method, Object[] args) throws Throwable {
		String chain = (request != null) ? request : method.getName();
		if (args != null) {
			for (int i = 0; i < args.length; i++) {
				if (args[i] instanceof BackgroundCallback callback) {
					args[i] = callback(callback);
				}
			}
		}
		if (request != null && request.equals("getChildren") && method.getName().equals("forPath")) {
			this.reads.incrementAndGet();
		}
		if (request != null && request.equals("checkExists") && method.getName().equals("forPath")) {
			this.beforeExistsCheck.accept((String) args[0]);
		}
		Object result;
		try {
			result = method.invoke(target, args);
		}
		catch (InvocationTargetException ex) {
			throw ex.getCause();
		}
		// Builders declare generic results: the interfaces of what came back tell.
		List<Class<?>> builders = (result != null) ? builderInterfaces(result.getClass()) : List.of();
		return builders.isEmpty() ? result : wrap(result, builders, chain);
	}

	private BackgroundCallback callback(BackgroundCallback callback) {
		return (client, event) -> {
			int code = event.getResultCode();
			// A watch on a queue node (a sequential name), not on a group node's data.
			if (event.getType() == CuratorEventType.GET_DATA && code == KeeperException.Code.OK.intValue()
					&& event.getPath() != null && event.getPath().matches(".*\\d{10}")) {
				this.watchesSet.incrementAndGet();
			}
			boolean lostRead = this.holdLosses && event.getType() == CuratorEventType.CHILDREN
					&& code == KeeperException.Code.CONNECTIONLOSS.intValue();
			boolean create = this.holdCreates && event.getType() == CuratorEventType.CREATE
					&& code == KeeperException.Code.OK.intValue();
			boolean read = this.holdReads && event.getType() == CuratorEventType.CHILDREN
					&& code == KeeperException.Code.OK.intValue();
			if (lostRead || create || read) {
				this.held.add(() -> {
					try {
						callback.processResult(client, event);
					}
					catch (Exception ex) {
						throw new IllegalStateException(ex);
					}
				});
				return;
			}
			callback.processResult(client, event);
		};
	}

}
