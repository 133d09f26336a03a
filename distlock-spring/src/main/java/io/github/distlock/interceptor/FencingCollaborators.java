package io.github.distlock.interceptor;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;

import io.github.distlock.core.Handle;
import io.github.distlock.core.LockConfigurationException;

/**
 * The {@link TransactionFencing} beans of a context as one: a context may fence the
 * transactions of its database and the writes of its Kafka producers. A fenced call
 * enters every fencing that is usable in the context; the annotation is refused at
 * startup only when none is.
 */
final class FencingCollaborators implements TransactionFencing {

	private final List<TransactionFencing> all;

	private FencingCollaborators(List<TransactionFencing> all) {
		this.all = all;
	}

	/**
	 * The fencing of a context.
	 * @param beanFactory the context, or {@code null} outside one
	 * @return the single bean, all of them as one, or {@code null} if there is none
	 */
	static @Nullable TransactionFencing find(@Nullable BeanFactory beanFactory) {
		List<TransactionFencing> all = (beanFactory != null)
				? beanFactory.getBeanProvider(TransactionFencing.class).orderedStream().toList() : List.of();
		if (all.isEmpty()) {
			return null;
		}
		return (all.size() == 1) ? all.get(0) : new FencingCollaborators(all);
	}

	@Override
	public void checkUsable(String description) {
		List<String> refusals = new ArrayList<>();
		for (TransactionFencing fencing : this.all) {
			try {
				fencing.checkUsable(description);
				return;
			}
			catch (LockConfigurationException ex) {
				refusals.add(ex.getMessage());
			}
		}
		String prefix = description + ": ";
		throw new LockConfigurationException(prefix + refusals.stream()
			.map((refusal) -> refusal.startsWith(prefix) ? refusal.substring(prefix.length()) : refusal)
			.collect(Collectors.joining("; and ")));
	}

	@Override
	public FencedCall enter(String description, Handle handle) {
		List<FencedCall> calls = new ArrayList<>(this.all.size());
		for (TransactionFencing fencing : this.all) {
			if (usable(fencing, description)) {
				calls.add(fencing.enter(description, handle));
			}
		}
		return new FencedCall() {

			@Override
			public boolean fencedTransaction() {
				return calls.stream().anyMatch(FencedCall::fencedTransaction);
			}

			@Override
			public void close() {
				// Innermost first, as they were entered in order.
				for (int i = calls.size() - 1; i >= 0; i--) {
					calls.get(i).close();
				}
			}

		};
	}

	private static boolean usable(TransactionFencing fencing, String description) {
		try {
			fencing.checkUsable(description);
			return true;
		}
		catch (LockConfigurationException ex) {
			return false;
		}
	}

}
