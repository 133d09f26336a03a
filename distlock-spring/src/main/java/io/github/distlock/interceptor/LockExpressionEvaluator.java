package io.github.distlock.interceptor;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.expression.AnnotatedElementKey;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.context.expression.CachedExpressionEvaluator;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.expression.EvaluationContext;
import org.springframework.expression.Expression;
import org.springframework.expression.common.TemplateParserContext;

/**
 * Parses the templates of lock annotations (and the key of {@code @PartitionOwner}) once
 * per annotated method, and creates the evaluation context of a call: arguments by name
 * ({@code #order}) and position ({@code #p0}, {@code #a0}),
 * {@link LockExpressionRootObject the root object}, and beans ({@code @name}).
 */
final class LockExpressionEvaluator extends CachedExpressionEvaluator {

	private static final TemplateParserContext TEMPLATE = new TemplateParserContext();

	private final Map<ExpressionKey, Expression> pathCache = new ConcurrentHashMap<>(64);

	private final Map<ExpressionKey, Expression> durationCache = new ConcurrentHashMap<>(64);

	private final Map<KeyExpression, Expression> keyCache = new ConcurrentHashMap<>(64);

	/**
	 * Parse a path template.
	 * @param template the template
	 * @param element the annotated method and its target class
	 * @return the template expression
	 * @throws org.springframework.expression.ParseException if the template is malformed
	 */
	Expression parsePath(String template, AnnotatedElementKey element) {
		return getExpression(this.pathCache, element, template);
	}

	/**
	 * Parse the template of a duration attribute ({@code waitTime}, {@code holdAtLeast}).
	 * @param template the template
	 * @param element the annotated method and its target class
	 * @return the template expression
	 * @throws org.springframework.expression.ParseException if the template is malformed
	 */
	Expression parseDuration(String template, AnnotatedElementKey element) {
		return getExpression(this.durationCache, element, template);
	}

	/**
	 * Parse a plain SpEL expression, not a template: the key of a
	 * {@code @PartitionOwner}.
	 * @param expression the expression
	 * @param element the annotated method and its target class
	 * @return the expression
	 * @throws org.springframework.expression.ParseException if the expression is
	 * malformed
	 */
	Expression parseKey(String expression, AnnotatedElementKey element) {
		KeyExpression key = new KeyExpression(element, expression);
		Expression parsed = this.keyCache.get(key);
		if (parsed == null) {
			// Not through getExpression: that parses a template.
			parsed = getParser().parseExpression(expression);
			this.keyCache.put(key, parsed);
		}
		return parsed;
	}

	@Override
	protected Expression parseExpression(String expression) {
		return getParser().parseExpression(expression, TEMPLATE);
	}

	/**
	 * Create the evaluation context of one call.
	 * @param method the annotated method as declared on the target class
	 * @param args the call's arguments
	 * @param target the target object
	 * @param targetClass the target class
	 * @param beanFactory the bean factory for {@code @bean} references, if any
	 * @return the context
	 */
	EvaluationContext createContext(Method method, @Nullable Object[] args, @Nullable Object target,
			Class<?> targetClass, @Nullable BeanFactory beanFactory) {
		LockExpressionRootObject root = new LockExpressionRootObject(method, args, target, targetClass);
		MethodBasedEvaluationContext context = new MethodBasedEvaluationContext(root, method, args,
				getParameterNameDiscoverer());
		if (beanFactory != null) {
			context.setBeanResolver(new BeanFactoryResolver(beanFactory));
		}
		return context;
	}

	private record KeyExpression(AnnotatedElementKey element, String expression) {
	}

}
