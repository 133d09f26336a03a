package org.springframework.boot.testcontainers.service.connection;

import org.testcontainers.containers.GenericContainer;

import org.springframework.boot.origin.Origin;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;

/**
 * Builds {@link ContainerConnectionSource}s (whose constructor Spring Boot keeps
 * package-private) for tests of connection details factories, without starting a
 * container.
 */
public final class TestContainerConnectionSources {

	private TestContainerConnectionSources() {
	}

	/**
	 * Return the source Spring Boot would make of a {@code @ServiceConnection} field.
	 * @param connectionName the annotation's {@code name}, empty to derive it from the
	 * image
	 * @param imageName the container's image
	 * @return the source
	 */
	@SuppressWarnings({ "rawtypes", "unchecked" })
	public static ContainerConnectionSource<GenericContainer<?>> genericContainer(String connectionName,
			String imageName) {
		MergedAnnotation<ServiceConnection> annotation = MergedAnnotation.of(ServiceConnection.class,
				java.util.Map.of("name", connectionName));
		Class<GenericContainer<?>> type = (Class) GenericContainer.class;
		return new ContainerConnectionSource<>("test", Origin.from("test"), type, imageName, annotation,
				() -> new GenericContainer<>(imageName), null, MergedAnnotations.of(java.util.List.of()));
	}

}
