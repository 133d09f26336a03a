package io.github.distlock.web;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.codec.autoconfigure.CodecsAutoConfiguration;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.webflux.autoconfigure.HttpHandlerAutoConfiguration;
import org.springframework.boot.webflux.autoconfigure.WebFluxAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.DispatcherServletAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.WebApplicationContext;
import org.springframework.web.reactive.DispatcherHandler;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.autoconfigure.DistlockAutoConfiguration;
import io.github.distlock.autoconfigure.web.DistlockWebAutoConfiguration;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockLostException;
import io.github.distlock.core.LockTimeoutException;
import io.github.distlock.core.Locks;
import io.github.distlock.testsupport.DistlockContextRunners;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/**
 * A {@link LockTimeoutException} (from a real lock held elsewhere) or a
 * {@link LockLostException} escaping a Spring MVC or WebFlux handler is answered with
 * 503, a problem detail and {@code Retry-After}, and the body gives away neither the
 * method nor the connect string; the application's own handler wins, and a property turns
 * the answer off.
 */
class LockProblemDetailsTests {

	private static final String LEAKY_MESSAGE = "@DistributedLock(\"stock/#{#sku}\") on ShopController.lost(): "
			+ "lock 'stock/widget' lost: ZooKeeper (127.0.0.1:2181) is not connected";

	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	private final WebApplicationContextRunner mvc = DistlockContextRunners
		.webApplicationContextRunner(zookeeper, DistlockAutoConfiguration.class, DistlockWebAutoConfiguration.class,
				JacksonAutoConfiguration.class, HttpMessageConvertersAutoConfiguration.class,
				DispatcherServletAutoConfiguration.class, WebMvcAutoConfiguration.class)
		.withUserConfiguration(Shop.class);

	private final ReactiveWebApplicationContextRunner webflux = DistlockContextRunners
		.reactiveWebApplicationContextRunner(zookeeper, DistlockAutoConfiguration.class,
				DistlockWebAutoConfiguration.class, JacksonAutoConfiguration.class, CodecsAutoConfiguration.class,
				WebFluxAutoConfiguration.class, HttpHandlerAutoConfiguration.class)
		.withUserConfiguration(Shop.class);

	@Test
	void mvcLockTimeoutIsAnswered503WithAProblemDetailAndRetryAfter() {
		this.mvc.withPropertyValues("distlock.web.problem-details.retry-after=1500ms").run((context) -> {
			MockMvc mockMvc = mockMvc(context);
			assertThat(mockMvc.perform(post("/stock/widget")).andReturn().getResponse().getStatus()).isEqualTo(200);
			try (AutoCloseable held = holdOnAnotherThread(context, "stock/widget")) {
				MvcResult result = mockMvc.perform(post("/stock/widget")).andReturn();
				assertThat(result.getResolvedException()).isInstanceOf(LockTimeoutException.class);
				assertThat(result.getResponse().getStatus()).isEqualTo(503);
				assertThat(result.getResponse().getHeader(HttpHeaders.RETRY_AFTER)).isEqualTo("2");
				assertThat(result.getResponse().getContentType()).isEqualTo("application/problem+json");
				assertThat(result.getResponse().getContentAsString()).contains("\"status\":503")
					.contains("\"title\":\"Resource busy\"")
					.contains("\"instance\":\"/stock/widget\"")
					.doesNotContain("reserve")
					.doesNotContain("Stock")
					.doesNotContain("127.0.0.1");
			}
		});
	}

	@Test
	void mvcLockLostIsAnswered503WithoutTheExceptionMessage() {
		this.mvc.run((context) -> {
			MvcResult result = mockMvc(context).perform(get("/lost")).andReturn();
			assertThat(result.getResolvedException()).isInstanceOf(LockLostException.class);
			assertThat(result.getResponse().getStatus()).isEqualTo(503);
			assertThat(result.getResponse().getHeader(HttpHeaders.RETRY_AFTER)).isEqualTo("1");
			assertThat(result.getResponse().getContentAsString()).contains("\"title\":\"Operation interrupted\"")
				.doesNotContain("ShopController")
				.doesNotContain("ZooKeeper")
				.doesNotContain("2181");
		});
	}

	@Test
	void mvcApplicationsOwnHandlerWins() {
		this.mvc.withUserConfiguration(OwnHandler.class).run((context) -> {
			MvcResult result = mockMvc(context).perform(get("/lost")).andReturn();
			assertThat(result.getResponse().getStatus()).isEqualTo(409);
			assertThat(result.getResponse().getContentAsString()).isEqualTo("own handler");
		});
	}

	@Test
	void mvcAnswerCanBeTurnedOff() {
		this.mvc.withPropertyValues("distlock.web.problem-details.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(LockProblemDetailsExceptionHandler.class);
			MockMvc mockMvc = mockMvc(context);
			assertThatException().isThrownBy(() -> mockMvc.perform(get("/lost")))
				.havingRootCause()
				.isInstanceOf(LockLostException.class);
		});
	}

	@Test
	void webfluxLockTimeoutIsAnswered503WithAProblemDetailAndRetryAfter() {
		this.webflux.run((context) -> {
			WebTestClient client = webTestClient(context);
			client.post().uri("/stock/widget").exchange().expectStatus().isOk();
			try (AutoCloseable held = holdOnAnotherThread(context, "stock/widget")) {
				client.post()
					.uri("/stock/widget")
					.exchange()
					.expectStatus()
					.isEqualTo(HttpStatus.SERVICE_UNAVAILABLE)
					.expectHeader()
					.valueEquals(HttpHeaders.RETRY_AFTER, "1")
					.expectHeader()
					.contentType(MediaType.APPLICATION_PROBLEM_JSON)
					.expectBody(String.class)
					.value((body) -> assertThat(body).contains("\"title\":\"Resource busy\"")
						.doesNotContain("reserve")
						.doesNotContain("127.0.0.1"));
			}
		});
	}

	@Test
	void webfluxLockLostIsAnswered503WithoutTheExceptionMessage() {
		this.webflux.run((context) -> {
			webTestClient(context).get()
				.uri("/lost")
				.exchange()
				.expectStatus()
				.isEqualTo(HttpStatus.SERVICE_UNAVAILABLE)
				.expectHeader()
				.exists(HttpHeaders.RETRY_AFTER)
				.expectBody(String.class)
				.value((body) -> assertThat(body).contains("\"title\":\"Operation interrupted\"")
					.doesNotContain("ShopController")
					.doesNotContain("2181"));
		});
	}

	@Test
	void webfluxApplicationsOwnHandlerWins() {
		this.webflux.withUserConfiguration(OwnHandler.class).run((context) -> {
			webTestClient(context).get()
				.uri("/lost")
				.exchange()
				.expectStatus()
				.isEqualTo(HttpStatus.CONFLICT)
				.expectBody(String.class)
				.isEqualTo("own handler");
		});
	}

	@Test
	void reactiveApplicationWithoutWebFluxGetsNoHandler() {
		ReactiveWebApplicationContextRunner runner = new ReactiveWebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DistlockWebAutoConfiguration.class));
		runner.run((context) -> assertThat(context).hasSingleBean(LockProblemDetailsExceptionHandler.class));
		runner.withClassLoader(new FilteredClassLoader(DispatcherHandler.class))
			.run((context) -> assertThat(context).doesNotHaveBean(LockProblemDetailsExceptionHandler.class));
	}

	private static MockMvc mockMvc(ApplicationContext context) throws InterruptedException {
		connected(context);
		return MockMvcBuilders.webAppContextSetup((WebApplicationContext) context).build();
	}

	private static WebTestClient webTestClient(ApplicationContext context) throws InterruptedException {
		connected(context);
		return WebTestClient.bindToApplicationContext(context).build();
	}

	/**
	 * Waits for the client's connection, which it makes in the background: a try-once
	 * lock fails while there is none.
	 */
	private static void connected(ApplicationContext context) throws InterruptedException {
		assertThat(context.getBean(CuratorFramework.class).blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
	}

	/**
	 * Holds a lock from another thread (a thread holding it would re-enter it) until
	 * closed.
	 */
	private static AutoCloseable holdOnAnotherThread(ApplicationContext context, String path) throws Exception {
		Locks locks = context.getBean(Locks.class);
		ExecutorService thread = Executors.newSingleThreadExecutor();
		LockHandle handle = thread.submit(() -> locks.mutex(path).acquire(Duration.ofSeconds(10)))
			.get(15, TimeUnit.SECONDS);
		return () -> {
			thread.submit(handle::close).get(15, TimeUnit.SECONDS);
			thread.shutdown();
		};
	}

	@Configuration(proxyBeanMethods = false)
	static class Shop {

		@Bean
		Stock stock() {
			return new Stock();
		}

		@Bean
		ShopController shopController(Stock stock) {
			return new ShopController(stock);
		}

	}

	static class Stock {

		@DistributedLock(value = "stock/#{#sku}", waitTime = "0")
		public int reserve(String sku) {
			return 1;
		}

	}

	@RestController
	static class ShopController {

		private final Stock stock;

		ShopController(Stock stock) {
			this.stock = stock;
		}

		@PostMapping("/stock/{sku}")
		int reserve(@PathVariable String sku) {
			return this.stock.reserve(sku);
		}

		@GetMapping("/lost")
		String lost() {
			throw new LockLostException(LEAKY_MESSAGE);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnHandler {

		@Bean
		OwnAdvice ownAdvice() {
			return new OwnAdvice();
		}

	}

	@RestControllerAdvice
	static class OwnAdvice {

		@ExceptionHandler
		ResponseEntity<String> lockLost(LockLostException ex) {
			return ResponseEntity.status(HttpStatus.CONFLICT).body("own handler");
		}

	}

}
