package io.github.distlock.interceptor;

import java.lang.reflect.Method;

import org.reactivestreams.Publisher;

import io.github.distlock.core.Handle;

/**
 * What a fenced locked call of a reactive method (a {@code Mono}, a {@code Flux}, a
 * Kotlin {@code suspend} function) asks of the transaction layer: that the reactive
 * transaction its work runs in commits only if no newer holder of its locks committed
 * before it. The lock wraps the transaction: the implementation runs the method's work,
 * once the locks are held, in a reactive transaction (or the one the pipeline already
 * runs in) that advances the locks' fences just before it commits. A context offers one
 * bean of this type when it can fence reactive transactions (a {@code ConnectionFactory}
 * and a reactive transaction manager); a fenced reactive method is refused at startup
 * without it.
 */
public interface ReactiveTransactionFencing {

	/**
	 * Check, when a fenced annotation is parsed, that reactive transactions can be
	 * fenced.
	 * @param description the annotation and the method, for the message
	 * @throws io.github.distlock.core.LockConfigurationException naming the method and
	 * what is missing
	 */
	void checkUsable(String description);

	/**
	 * Run the work of a fenced call in a fenced reactive transaction.
	 * @param description the annotation and the method, for messages
	 * @param handle the call's handle, held: every lock it holds fences
	 * @param method the method, whose transaction attributes ({@code @Transactional}) the
	 * transaction takes
	 * @param targetClass the target class
	 * @param work the method's publisher, subscribed to inside the transaction
	 * @return the work's signals; an error if the commit was refused
	 */
	Publisher<?> fence(String description, Handle handle, Method method, Class<?> targetClass, Publisher<?> work);

}
