import Streams

/// The two state holders the combined-reader tests read: numbers from 0 and words from "a".
func numbersAndWords() -> (numbers: StateBroadcast<Int, Never>, words: StateBroadcast<String, Never>) {
    (StateBroadcast(0), StateBroadcast("a"))
}
