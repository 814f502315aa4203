-- wrk script for every scenario of the bench:
--   wrk ... -s load.lua <url> -- <scenario> <data file> [<run number> <connections> <hold ms>]
-- (run number 1, no hold when the last three are left out)
-- The data file has one record per line: "product <id>", "admin <token>",
-- "customer <user id> <token> <product id>,<product id>,...".

local scenario
local products, customers, tokens_by_cart = {}, {}, {}
local admin_token
local queue = {} -- cart items created and not yet deleted or checked out: {id, token}
local counter = 0
local connections, hold_ms, held = 0, 0, 0

local function load(path)
  for line in io.lines(path) do
    local kind, a, b, c = line:match("^(%S+) (%S+) ?(%S*) ?(%S*)$")
    if kind == "product" then
      products[#products + 1] = a
    elseif kind == "admin" then
      admin_token = a
    elseif kind == "customer" then
      local owned = {}
      for id in c:gmatch("[^,]+") do owned[#owned + 1] = id end
      customers[#customers + 1] = { id = a, token = b, products = owned, next = 0 }
      tokens_by_cart[a] = b
    end
  end
end

local function get(path, token)
  local headers = token and { Authorization = "Bearer " .. token } or {}
  return wrk.format("GET", path, headers)
end

local function send(method, path, token, body)
  local headers = { Authorization = "Bearer " .. token }
  if body then headers["Content-Type"] = "application/json" end
  return wrk.format(method, path, headers, body)
end

local function read_product()
  counter = counter + 1
  return get("/products/" .. products[(counter * 7) % #products + 1])
end

local function create_product()
  counter = counter + 1
  return send("POST", "/products", admin_token, string.format(
    '{"data":{"name":"Bench product %d","description":"Made under load.","price_cents":%d,"currency":"EUR","stock":10}}',
    counter, counter % 100000))
end

local function next_customer()
  counter = counter + 1
  return customers[counter % #customers + 1]
end

local function read_cart()
  local customer = next_customer()
  return get("/carts/" .. customer.id, customer.token)
end

-- Each customer cycles through its own products: one line per product in a cart.
local function create_item()
  local customer = next_customer()
  customer.next = customer.next % #customer.products + 1
  return send("POST", "/cart_items", customer.token, string.format(
    '{"data":{"cart_id":"%s","product_id":"%s","quantity":1}}',
    customer.id, customer.products[customer.next]))
end

local function finish_item(checkout)
  local item = table.remove(queue, 1)
  if checkout then
    return send("POST", "/orders", item.token,
      string.format('{"data":{"cart_item_ids":["%s"]}}', item.id))
  end
  return send("DELETE", "/cart_items/" .. item.id, item.token)
end

local mixes = {
  S1 = read_product,
  S2 = function() return get("/products?limit=25") end,
  S2f = function() return get("/products?limit=25&filter[price_cents][gte]=90000") end,
  S3 = create_product,
  S5 = read_cart,
  -- A created item is deleted by the next request that finds it queued.
  S6 = function()
    if #queue > 0 then return finish_item(false) end
    return create_item()
  end,
  -- The soak: reads of products and carts, items created, then deleted or checked out.
  soak = function()
    local roll = math.random()
    if #queue > 0 and roll < 0.3 then return finish_item(roll < 0.1) end
    if roll < 0.6 then return read_product() end
    if roll < 0.8 then return read_cart() end
    return create_item()
  end,
}

-- Each run starts its customers further along their products: requests in flight when the
-- previous run stopped may still have added items after the bench emptied the carts.
function init(args)
  scenario = args[1]
  load(args[2])
  local run = tonumber(args[3]) or 1
  connections, hold_ms = tonumber(args[4]) or 0, tonumber(args[5]) or 0
  for _, customer in ipairs(customers) do
    customer.next = (run * 100) % #customer.products
  end
  math.randomseed(1)
end

function request()
  return mixes[scenario]()
end

-- Every connection's first request waits hold_ms, so that each is sent on a connection the
-- server has accepted: node accepts one connection per turn of its event loop, and a request
-- sent at once on the last of 50 new connections waits for 50 turns of a loaded server (the
-- service read it 150 to 190 ms after the first on S1, whose p50 is 5 to 10 ms). wrk then
-- measures requests on open connections, as a gateway's pooled connections see them. The
-- zero delay of every later request costs wrk about 4 microseconds.
function delay()
  if held < connections then
    held = held + 1
    return hold_ms
  end
  return 0
end

function response(status, _, body)
  if status == 201 and body:find('"type":"cart_items"', 1, true) then
    local id = body:match('"id":"([^"]+)"')
    local cart = body:match('"cart_id":"([^"]+)"')
    queue[#queue + 1] = { id = id, token = tokens_by_cart[cart] }
  end
end

function done(summary, latency)
  local e = summary.errors
  io.write(string.format(
    'BENCH_RESULT {"requests":%d,"duration_us":%d,"errors":%d,"non2xx":%d,"p50_us":%d,"p99_us":%d}\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50), latency:percentile(99)))
end
