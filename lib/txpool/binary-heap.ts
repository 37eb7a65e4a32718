/** A binary heap: the pool's orders of eviction (cheapest first) and of idleness (oldest first), and a tick's order of senders (transaction-queue). */

/** A heap over `before`: `peek` and `pop` give an item no other item comes before. */
export class BinaryHeap<T> {
  private readonly items: T[]

  /** A heap of `items` (taken over, heapified in linear time). */
  constructor(
    private readonly before: (a: T, b: T) => boolean,
    items: T[] = [],
  ) {
    this.items = items
    for (let index = (items.length >> 1) - 1; index >= 0; index--) this.siftDown(index)
  }

  /** How many items it holds. */
  get size(): number {
    return this.items.length
  }

  /** The first item, or undefined when empty. */
  peek(): T | undefined {
    return this.items[0]
  }

  /** Adds `item`. */
  push(item: T): void {
    this.items.push(item)
    this.siftUp(this.items.length - 1)
  }

  /** Takes out the first item. */
  pop(): T | undefined {
    const { items } = this
    const top = items[0]
    const last = items.pop()
    if (items.length > 0) {
      items[0] = last!
      this.siftDown(0)
    }
    return top
  }

  private siftUp(index: number): void {
    const { items, before } = this
    while (index > 0) {
      const parent = (index - 1) >> 1
      if (!before(items[index], items[parent])) break
      ;[items[index], items[parent]] = [items[parent], items[index]]
      index = parent
    }
  }

  private siftDown(index: number): void {
    const { items, before } = this
    for (;;) {
      const left = 2 * index + 1
      const right = left + 1
      let best = index
      if (left < items.length && before(items[left], items[best])) best = left
      if (right < items.length && before(items[right], items[best])) best = right
      if (best === index) return
      ;[items[index], items[best]] = [items[best], items[index]]
      index = best
    }
  }
}
