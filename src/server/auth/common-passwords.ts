/**
 * Passwords of 8+ characters that top the public breach lists, plus this product's own
 * obvious words. Compared case-insensitively. Short by design: it stops the guesses an
 * attacker tries first; length does the rest (DESIGN.md §5: no composition rules).
 */
export const commonPasswords = new Set([
  "password", "password1", "password12", "password123", "password!", "passw0rd", "p@ssw0rd", "p@ssword",
  "12345678", "123456789", "1234567890", "0123456789", "11111111", "00000000", "88888888", "87654321",
  "987654321", "12341234", "123123123", "123456789a", "a1234567", "aa123456", "abc12345", "abcd1234",
  "qwerty12", "qwerty123", "qwertyuiop", "qwe12345", "1qaz2wsx", "1q2w3e4r", "q1w2e3r4", "1234qwer",
  "zaq12wsx", "qazwsxedc", "123qweasd", "asdfghjk", "asdfasdf", "asdf1234", "zxcvbnm1", "iloveyou",
  "iloveyou1", "lovelove", "sunshine", "sunshine1", "princess", "princess1", "football", "football1",
  "baseball", "baseball1", "welcome1", "welcome123", "trustno1", "superman", "starwars", "starwars1",
  "whatever", "whatever1", "letmein1", "letmein123", "dragon12", "monkey12", "shadow12", "master12",
  "computer", "internet", "michelle", "jennifer", "corvette", "mercedes", "liverpool", "chelsea1",
  "arsenal1", "freedom1", "charlie1", "jordan23", "myspace1", "blink182", "pokemon1", "pokemon123",
  "minecraft", "fortnite", "hello123", "test1234", "testtest", "secret12", "changeme", "changeme1",
  "admin123", "admin1234", "administrator", "default1", "letmeinplease", "summer2024", "winter2024",
  "spring2025", "summer2025", "autumn2025", "winter2025", "summer2026", "winter2026",
  "configuration", "configurationtool", "northwind", "northwind1", "northwindradio", "radio123",
  "radios123", "walkietalkie",
]);

export function isCommonPassword(password: string): boolean {
  return commonPasswords.has(password.trim().toLowerCase());
}
