package io.github.distlock.interceptor;

import java.lang.reflect.Method;

import org.springframework.expression.Expression;

import io.github.distlock.annotation.OnNotOwner;

/**
 * A {@link io.github.distlock.annotation.PartitionOwner @PartitionOwner}, parsed and
 * validated once: the method runs only on the owner of its key's partition, inside
 * {@link io.github.distlock.core.Partitions#enter(int)}.
 *
 * @param method the annotated method as declared on the target class: its parameter names
 * are the ones the key sees
 * @param description the annotation and method, for messages
 * @param group the partitioned group, a literal lock path
 * @param partitions the group's number of partitions
 * @param key the key expression, plain SpEL
 * @param onNotOwner what a call on an instance that does not own the key's partition does
 */
public record PartitionOwnerOperation(Method method, String description, String group, int partitions, Expression key,
		OnNotOwner onNotOwner) {
}
