// Placeholder so the test target builds before its first real test lands.
import Testing
@Test func placeholderActivityBrokerClientTests() { #expect(Bool(true)) }
