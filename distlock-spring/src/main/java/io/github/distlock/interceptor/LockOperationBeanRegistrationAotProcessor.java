package io.github.distlock.interceptor;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.LinkedHashSet;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;
import org.springframework.core.annotation.RepeatableContainers;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.annotation.LeaderOnly;
import io.github.distlock.annotation.PartitionOwner;
import io.github.distlock.annotation.ReadLock;
import io.github.distlock.annotation.Semaphore;
import io.github.distlock.annotation.WriteLock;

/**
 * Registers, at build time, the runtime hints a bean with lock annotations (or
 * {@code @LeaderOnly}) needs: its class and interfaces, whose methods the
 * {@link AnnotationLockOperationSource} reads for annotations when the bean is proxied,
 * and every fallback method, which the interceptor invokes by reflection.
 */
class LockOperationBeanRegistrationAotProcessor implements BeanRegistrationAotProcessor {

	private static final Set<Class<? extends Annotation>> LOCK_ANNOTATIONS = Set.of(DistributedLock.class,
			ReadLock.class, WriteLock.class, Semaphore.class, LeaderOnly.class, PartitionOwner.class);

	@Override
	public @Nullable BeanRegistrationAotContribution processAheadOfTime(RegisteredBean registeredBean) {
		Class<?> beanClass = ClassUtils.getUserClass(registeredBean.getBeanClass());
		Set<String> fallbacks = new LinkedHashSet<>();
		// An annotation may be on the class: every public method then has it.
		boolean[] locked = { false };
		MergedAnnotations.from(beanClass, SearchStrategy.TYPE_HIERARCHY, RepeatableContainers.none())
			.stream()
			.filter((annotation) -> LOCK_ANNOTATIONS.contains(annotation.getType()))
			.forEach((annotation) -> {
				locked[0] = true;
				fallback(annotation).ifPresent(fallbacks::add);
			});
		ReflectionUtils.doWithMethods(beanClass, (method) -> {
			MergedAnnotations.from(method, SearchStrategy.TYPE_HIERARCHY, RepeatableContainers.none())
				.stream()
				.filter((annotation) -> LOCK_ANNOTATIONS.contains(annotation.getType()))
				.forEach((annotation) -> {
					locked[0] = true;
					fallback(annotation).ifPresent(fallbacks::add);
				});
		}, ReflectionUtils.USER_DECLARED_METHODS);
		if (!locked[0]) {
			return null;
		}
		return (generationContext, beanRegistrationCode) -> {
			ReflectionHints reflection = generationContext.getRuntimeHints().reflection();
			reflection.registerType(beanClass);
			for (Class<?> ifc : ClassUtils.getAllInterfacesForClassAsSet(beanClass)) {
				reflection.registerType(ifc);
			}
			for (Method method : ReflectionUtils.getUniqueDeclaredMethods(beanClass,
					(candidate) -> fallbacks.contains(candidate.getName()))) {
				reflection.registerMethod(method, ExecutableMode.INVOKE);
			}
		};
	}

	private static java.util.Optional<String> fallback(MergedAnnotation<Annotation> annotation) {
		return annotation.getValue("fallback", String.class).filter((name) -> !name.isEmpty());
	}

}
