package io.github.distlock.history;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * The engine with planted defects, for tests only: the catalogue's patches applied to a
 * copy of the engine's source files, compiled at test time into a directory of their own,
 * and a child-first class loader that takes every {@code io.github.distlock} class from
 * that directory first, then from the normal class path, and every other class (the JDK,
 * JUnit, AssertJ, Curator, ZooKeeper, logging) from its parent. Code runs against it by
 * reflection through a static method that takes and returns JDK types only, so that no
 * class crosses the two loaders.
 */
public final class PatchedEngine implements AutoCloseable {

	private static final String ENGINE_PACKAGE = "io/github/distlock/curator/";

	private final List<PlantedDefect> defects;

	private final Path directory;

	private final Path classes;

	private final List<String> patchedClasses = new ArrayList<>();

	private PatchedEngine(List<PlantedDefect> defects, Path directory) {
		this.defects = defects;
		this.directory = directory;
		this.classes = directory.resolve("classes");
	}

	/**
	 * Apply the defects' patches to the engine's source and compile the patched files.
	 * @param defects the defects to plant
	 * @return the patched engine
	 * @throws IllegalStateException if a patch's original text is not in its file exactly
	 * once, or the patched source does not compile
	 */
	public static PatchedEngine plant(PlantedDefect... defects) throws IOException {
		PatchedEngine engine = new PatchedEngine(List.of(defects), Files.createTempDirectory("distlock-planted-"));
		try {
			engine.compile();
		}
		catch (RuntimeException | IOException ex) {
			engine.close();
			throw ex;
		}
		return engine;
	}

	/** The engine's source directory, from this module's base directory. */
	static Path engineSources() {
		Path base = Path.of(System.getProperty("basedir", System.getProperty("user.dir")));
		return base.resolve("../distlock-core/src/main/java").normalize().resolve(ENGINE_PACKAGE);
	}

	private void compile() throws IOException {
		Map<String, String> sources = new LinkedHashMap<>();
		for (PlantedDefect defect : this.defects) {
			for (PlantedDefect.Patch patch : defect.patches()) {
				String text = sources.computeIfAbsent(patch.file(), this::read);
				int count = occurrences(text, patch.original());
				if (count != 1) {
					throw new IllegalStateException("The planted line of " + defect.id() + " is "
							+ ((count == 0) ? "not in " + patch.file() + " any more"
									: "in " + patch.file() + " " + count + " times")
							+ ": update the catalogue (PlantedDefect). The line:\n" + patch.original());
				}
				sources.put(patch.file(), text.replace(patch.original(), patch.replacement()));
			}
		}
		Path sourceRoot = this.directory.resolve("src");
		List<String> files = new ArrayList<>();
		for (Map.Entry<String, String> source : sources.entrySet()) {
			Path file = sourceRoot.resolve(ENGINE_PACKAGE).resolve(source.getKey());
			Files.createDirectories(file.getParent());
			Files.writeString(file, source.getValue(), StandardCharsets.UTF_8);
			files.add(file.toString());
			String name = source.getKey().substring(0, source.getKey().length() - ".java".length());
			this.patchedClasses.add(ENGINE_PACKAGE.replace('/', '.') + name);
		}
		Files.createDirectories(this.classes);
		JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
		if (compiler == null) {
			throw new IllegalStateException("Planted runs need a JDK's compiler (javax.tools)");
		}
		List<String> arguments = new ArrayList<>(List.of("-d", this.classes.toString(), "-classpath",
				String.join(File.pathSeparator, classPath()), "-sourcepath", sourceRoot.toString(), "-implicit:none",
				"-proc:none", "-nowarn", "-encoding", "UTF-8", "--release", "17"));
		arguments.addAll(files);
		ByteArrayOutputStream errors = new ByteArrayOutputStream();
		int status = compiler.run(null, errors, errors, arguments.toArray(String[]::new));
		if (status != 0) {
			throw new IllegalStateException("The engine with " + ids() + " planted does not compile:\n"
					+ errors.toString(StandardCharsets.UTF_8));
		}
	}

	private String read(String file) {
		try {
			return Files.readString(engineSources().resolve(file), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("The engine source " + file + " of a planted defect is not at "
					+ engineSources() + ": update the catalogue (PlantedDefect)", ex);
		}
	}

	private static int occurrences(String text, String fragment) {
		int count = 0;
		for (int at = text.indexOf(fragment); at >= 0; at = text.indexOf(fragment, at + 1)) {
			count++;
		}
		return count;
	}

	/** The test's class path: surefire's, else the JVM's. */
	private static List<String> classPath() {
		String path = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
		return Arrays.stream(path.split(File.pathSeparator)).filter((entry) -> !entry.isBlank()).toList();
	}

	/**
	 * A new class loader of the patched engine: each run gets its own, so that no static
	 * state is shared between runs.
	 * @return the loader; close it after the run
	 */
	public URLClassLoader newLoader() {
		List<URL> urls = new ArrayList<>();
		try {
			urls.add(this.classes.toUri().toURL());
			for (String entry : classPath()) {
				urls.add(Path.of(entry).toUri().toURL());
			}
		}
		catch (MalformedURLException ex) {
			throw new IllegalStateException(ex);
		}
		return new ChildFirst(urls.toArray(URL[]::new), PatchedEngine.class.getClassLoader());
	}

	/**
	 * Call a static method in a new loader of the patched engine, after checking that
	 * each patched class is loaded from the patched output.
	 * @param className the class, loaded by the patched loader
	 * @param method the static method's name (one method of that name)
	 * @param arguments JDK values only
	 * @return what it returned (a JDK value)
	 */
	public Object call(String className, String method, Object... arguments) throws Exception {
		try (URLClassLoader loader = newLoader()) {
			for (String patched : this.patchedClasses) {
				String origin = origin(loader, patched);
				if (!Path.of(java.net.URI.create(origin)).equals(this.classes)) {
					throw new IllegalStateException(patched + " was loaded from " + origin + ", not from the patched "
							+ "output " + this.classes + ": the defect is not planted");
				}
			}
			Class<?> type = Class.forName(className, true, loader);
			Method target = Arrays.stream(type.getDeclaredMethods())
				.filter((candidate) -> candidate.getName().equals(method))
				.findFirst()
				.orElseThrow(() -> new IllegalArgumentException("No method " + method + " in " + className));
			target.setAccessible(true);
			ClassLoader previous = Thread.currentThread().getContextClassLoader();
			Thread.currentThread().setContextClassLoader(loader);
			try {
				return target.invoke(null, arguments);
			}
			catch (InvocationTargetException ex) {
				if (ex.getCause() instanceof Exception cause) {
					throw cause;
				}
				throw ex;
			}
			finally {
				Thread.currentThread().setContextClassLoader(previous);
			}
		}
	}

	/** Where a loader takes a class from. */
	static String origin(ClassLoader loader, String className) throws ClassNotFoundException {
		return Class.forName(className, false, loader).getProtectionDomain().getCodeSource().getLocation().toString();
	}

	private String ids() {
		return this.defects.stream().map(PlantedDefect::id).toList().toString();
	}

	@Override
	public void close() throws IOException {
		try (Stream<Path> files = Files.walk(this.directory)) {
			files.sorted(Comparator.reverseOrder()).forEach((file) -> file.toFile().delete());
		}
	}

	/**
	 * Takes distlock's classes from its own entries first; delegates every other class to
	 * its parent.
	 */
	private static final class ChildFirst extends URLClassLoader {

		static {
			registerAsParallelCapable();
		}

		ChildFirst(URL[] urls, ClassLoader parent) {
			super("distlock-planted", urls, parent);
		}

		@Override
		protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
			if (!name.startsWith("io.github.distlock.")) {
				return super.loadClass(name, resolve);
			}
			synchronized (getClassLoadingLock(name)) {
				Class<?> type = findLoadedClass(name);
				if (type == null) {
					try {
						type = findClass(name);
					}
					catch (ClassNotFoundException ex) {
						type = super.loadClass(name, false);
					}
				}
				if (resolve) {
					resolveClass(type);
				}
				return type;
			}
		}

	}

}
